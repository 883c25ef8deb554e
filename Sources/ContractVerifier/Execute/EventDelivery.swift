import Foundation

/// Tells the reporters and the tally about each case the moment it ends, on the engine thread
/// where it ended, one event at a time under a lock.
///
/// Handing results to a task of their own (batched, to wake it less often) made that task a
/// third busy thread on machines with two cores, preempting the engines: delivering where the
/// result is made costs a lock instead of a hand-off, and a reporter sees a result as soon as it
/// exists.
final class EventDelivery: @unchecked Sendable {
    private let lock = NSLock()
    private var reporters: [(any VerifyReporter)?]
    private var summary: VerifySummary
    private let redact: @Sendable (String) -> String
    private let baseline: BaselineCheck?
    /// Fingerprints of known or expired findings met, for what the baseline lists and no case met.
    private var met: Set<String> = []

    /// - Parameter redact: masks secrets in a reporter's error before it is kept.
    init(
        reporters: [any VerifyReporter], baseURL: String, run: RunIdentity, baseline: BaselineCheck?,
        redact: @escaping @Sendable (String) -> String
    ) {
        self.reporters = reporters
        summary = VerifySummary(baseURL: baseURL)
        summary.run = run
        summary.hasBaseline = run.baseline != nil
        summary.failOn = run.failOn
        self.baseline = baseline
        self.redact = redact
    }

    func started(total: Int) {
        lock.withLock { tell(.started(total: total, baseURL: summary.baseURL)) }
    }

    func finished(_ result: CaseResult, at position: Int) {
        var result = result
        var listed: [String] = []
        if let baseline {
            // Marked here, before any reporter sees the result, outside the lock.
            baseline.mark(&result)
            listed = result.findings.filter { $0.baseline != nil }.map { $0.fingerprint(contract: result.contractID, case: result.caseName) }
        }
        lock.withLock {
            met.formUnion(listed)
            summary.count(result)
            tell(.finished(result, position: position))
        }
    }

    /// Ends the run: the tally, told to every reporter still listening, with their errors.
    func completed(after duration: Duration, ran cases: Set<String>) -> VerifySummary {
        let fixed = lock.withLock { baseline?.fixed(ran: cases, met: met) ?? [] }
        return completed(after: duration, fixed: fixed)
    }

    /// Ends a run whose fixed baseline entries are known already (shards merged).
    func completed(after duration: Duration, fixed: [Baseline.Entry]) -> VerifySummary {
        lock.withLock {
            summary.duration = duration
            summary.fixed = fixed
            tell(.completed(summary))
            return summary
        }
    }

    /// Under the lock. A reporter that throws is told nothing more; the others still get every event.
    private func tell(_ event: VerifyEvent) {
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
