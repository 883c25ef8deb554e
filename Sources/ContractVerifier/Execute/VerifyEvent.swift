/// What happens in a run, as the verifier tells its reporters.
public enum VerifyEvent: Sendable {
    /// Before the first request: how many cases will run, against which server (as shown).
    case started(total: Int, baseURL: String)
    /// One case ended. Events come as cases finish, which is not plan order when requests run
    /// concurrently; `position` is the case's place in the plan (from 0), for reporters that
    /// write in plan order (``PlanOrder``).
    case finished(CaseResult, position: Int)
    /// After the last case.
    case completed(VerifySummary)
}

/// Receives a run's events. Reporters are peers: each gets every event, one at a time, in the
/// order they happen. `finished` comes on the HTTP engine's thread where the case ended, so a
/// reporter that takes long slows the run. A reporter that throws is told nothing more, and its
/// error is reported in ``VerifySummary/reporterErrors``.
public protocol VerifyReporter: AnyObject {
    func receive(_ event: VerifyEvent) throws
}

/// Puts results that arrive in any order back into plan order, holding only those that came
/// ahead of an earlier one.
public struct PlanOrder<Value> {
    private var next = 0
    private var waiting: [Int: Value] = [:]

    public init() {}

    /// Gives `release` every value that is now next in plan order, in order.
    public mutating func add(_ value: Value, at position: Int, release: (Value) throws -> Void) rethrows {
        guard position == next else {
            waiting[position] = value
            return
        }
        try release(value)
        next += 1
        while let ready = waiting.removeValue(forKey: next) {
            try release(ready)
            next += 1
        }
    }
}

/// Keeps every result, in plan order.
public final class CollectedResults: VerifyReporter {
    public private(set) var results: [CaseResult] = []
    private var order = PlanOrder<CaseResult>()

    public init() {}

    public func receive(_ event: VerifyEvent) {
        if case .finished(let result, let position) = event {
            order.add(result, at: position) { results.append($0) }
        }
    }
}
