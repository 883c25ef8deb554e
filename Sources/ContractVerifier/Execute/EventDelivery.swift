import Foundation

/// Tells the reporters and the tally about each case the moment it ends, on the engine thread
/// where it ended, one event at a time under a lock: the one place events leave the engine.
///
/// Handing results to a task of their own (batched, to wake it less often) made that task a
/// third busy thread on machines with two cores, preempting the engines: delivering where the
/// result is made costs a lock instead of a hand-off, and a reporter sees a result as soon as it
/// exists. Reporters are `Sendable`; the lock orders their events, and every mutable thing here
/// (the reporters still listening, the tally, the baseline entries met) is inside it.
final class EventDelivery: Sendable {
    private struct State {
        var reporters: [(any VerifyReporter)?]
        var summary: VerifySummary
        /// Fingerprints of known or expired findings met, for what the baseline lists and no case met.
        var met: Set<String> = []

        /// A reporter that throws is told nothing more; the others still get every event.
        mutating func tell(_ event: VerifyEvent, redact: (String) -> String) {
            for index in reporters.indices {
                guard let reporter = reporters[index] else { continue }
                do {
                    try reporter.receive(event)
                } catch {
                    summary.reporterErrors.append(redact("\(error)"))
                    reporters[index] = nil
                }
            }
        }
    }

    private let state: Locked<State>
    private let redact: @Sendable (String) -> String
    private let baseline: BaselineCheck?

    /// - Parameter redact: masks secrets in a reporter's error before it is kept.
    init(
        reporters: [any VerifyReporter], baseURL: String, run: RunIdentity, baseline: BaselineCheck?,
        redact: @escaping @Sendable (String) -> String
    ) {
        var summary = VerifySummary(baseURL: baseURL)
        summary.run = run
        summary.hasBaseline = run.baseline != nil
        summary.failOn = run.failOn
        state = Locked(State(reporters: reporters, summary: summary))
        self.baseline = baseline
        self.redact = redact
    }

    func started(total: Int) {
        state.withLock { state in state.tell(.started(total: total, baseURL: state.summary.baseURL), redact: redact) }
    }

    /// Takes the result (`consuming`): it goes into the event as it came, not copied, a retain
    /// per field saved for every case.
    func finished(_ result: consuming CaseResult, at position: Int) {
        // Without a baseline the result goes out as it came: a copy to mark costs a retain per field.
        guard let baseline else { return tell(result, at: position, met: []) }
        var result = result
        // Marked here, before any reporter sees the result, outside the lock.
        baseline.mark(&result)
        let listed = result.findings.filter { $0.baseline != nil }.map { $0.fingerprint(contract: result.contractID, case: result.caseName) }
        tell(result, at: position, met: listed)
    }

    private func tell(_ result: consuming CaseResult, at position: Int, met listed: [String]) {
        // Made before the lock: a result captured by the lock's closure would be copied into it.
        let event = VerifyEvent.finished(result, position: position)
        state.withLock { state in
            if !listed.isEmpty { state.met.formUnion(listed) }
            if case .finished(let result, _) = event.base { state.summary.count(result) }
            state.tell(event, redact: redact)
        }
    }

    /// Ends the run: the tally, told to every reporter still listening, with their errors.
    func completed(after duration: Duration, ran cases: Set<String>) -> VerifySummary {
        let fixed = state.withLock { state in baseline?.fixed(ran: cases, met: state.met) ?? [] }
        return completed(after: duration, fixed: fixed)
    }

    /// Ends a run whose fixed baseline entries are known already (shards merged).
    func completed(after duration: Duration, fixed: [Baseline.Entry]) -> VerifySummary {
        state.withLock { state in
            state.summary.duration = duration
            state.summary.fixed = fixed
            state.tell(.completed(state.summary), redact: redact)
            return state.summary
        }
    }
}
