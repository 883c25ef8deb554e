/// What happens in a run, as the verifier tells its reporters: ``started(total:baseURL:)``,
/// ``finished(_:position:)`` for each case, ``completed(_:)``.
///
/// A struct over an internal enum, not an enum, so an event added later breaks no reporter's
/// `switch`: a reporter reads the events it knows (``started``, ``finished``, ``completed``; nil
/// when the event is another) and lets the others pass.
public struct VerifyEvent: Sendable {
    enum Base: Sendable {
        case started(total: Int, baseURL: String)
        case finished(CaseResult, position: Int)
        case completed(VerifySummary)
    }

    let base: Base

    /// Before the first request: how many cases will run, against which server (as shown).
    public static func started(total: Int, baseURL: String) -> VerifyEvent {
        VerifyEvent(base: .started(total: total, baseURL: baseURL))
    }

    /// One case ended. Events come as cases finish, which is not plan order when requests run
    /// concurrently; `position` is the case's place in the plan (from 0), for reporters that
    /// write in plan order (``PlanOrder``).
    public static func finished(_ result: consuming CaseResult, position: Int) -> VerifyEvent {
        VerifyEvent(base: .finished(result, position: position))
    }

    /// After the last case.
    public static func completed(_ summary: VerifySummary) -> VerifyEvent {
        VerifyEvent(base: .completed(summary))
    }

    /// The case count and server of a `started` event; nil for any other.
    public var started: (total: Int, baseURL: String)? {
        guard case .started(let total, let baseURL) = base else { return nil }
        return (total, baseURL)
    }

    /// The result and plan position of a `finished` event; nil for any other.
    public var finished: (result: CaseResult, position: Int)? {
        guard case .finished(let result, let position) = base else { return nil }
        return (result, position)
    }

    /// The tally of a `completed` event; nil for any other.
    public var completed: VerifySummary? {
        guard case .completed(let summary) = base else { return nil }
        return summary
    }
}

/// Receives a run's events. Reporters are peers: each gets every event, one at a time, in the
/// order they happen. Events are delivered from one place, under one lock, but not on one thread:
/// `finished` comes on the HTTP engine's thread where the case ended, so a reporter that takes
/// long slows the run, and a reporter must be `Sendable` (its state behind a lock, as
/// ``ConsoleReporter``'s and ``FileReporter``'s are). A reporter that throws is told nothing more,
/// and its error is reported in ``VerifySummary/reporterErrors``.
public protocol VerifyReporter: AnyObject, Sendable {
    func receive(_ event: VerifyEvent) throws
}

/// Puts results that arrive in any order back into plan order, holding only those that came
/// ahead of an earlier one.
///
/// Held values sit in a window that starts at the next position due (`waiting[first]` is
/// `next`'s slot), not in a dictionary: with a few dozen requests in flight, about half the
/// results arrive ahead of an earlier one, and hashing each in and out cost more than the rest of
/// putting it in order. The window is as wide as the earliest missing result is far behind the
/// latest arrived, as the dictionary was.
public struct PlanOrder<Value> {
    private var next = 0
    private var waiting: [Value?] = []
    /// Where `next`'s slot is in `waiting`: slots before it are spent, and let go in a batch.
    private var first = 0

    public init() {}

    /// Gives `release` every value that is now next in plan order, in order.
    public mutating func add(_ value: Value, at position: Int, release: (Value) throws -> Void) rethrows {
        guard position == next else {
            let slot = first + position - next
            if slot >= waiting.count { waiting.append(contentsOf: repeatElement(nil, count: slot - waiting.count + 1)) }
            waiting[slot] = value
            return
        }
        try release(value)
        next += 1
        first += 1
        while first < waiting.count, let ready = waiting[first] {
            waiting[first] = nil
            try release(ready)
            next += 1
            first += 1
        }
        if first >= waiting.count {
            waiting.removeAll(keepingCapacity: true)
            first = 0
        } else if first >= 1_024 && first * 2 >= waiting.count {
            waiting.removeFirst(first)
            first = 0
        }
    }
}

/// Keeps every result, in plan order.
public final class CollectedResults: VerifyReporter {
    private struct State {
        var results: [CaseResult] = []
        var order = PlanOrder<CaseResult>()
    }

    private let state = Locked(State())

    public init() {}

    /// The results received so far, in plan order up to the first one still missing.
    public var results: [CaseResult] {
        state.withLock { $0.results }
    }

    public func receive(_ event: VerifyEvent) {
        guard case let (result, position)? = event.finished else { return }
        state.withLock { state in state.order.add(result, at: position) { state.results.append($0) } }
    }
}
