import ContractHTTP
import ContractModel
import Foundation

/// The execute stage: runs a plan's cases against its server and tells every reporter what
/// happens, as it happens.
public enum Verifier {
    /// Runs every case of `plan`, at most `concurrency` requests in flight, in plan order except
    /// where a case must wait for one on the same resources (``RunQueue``). Each reporter gets
    /// `started`, a `finished` per case the moment it ends, and `completed` (see ``VerifyReporter``).
    public static func run(_ plan: VerifyPlan, reporters: [any VerifyReporter]) async -> VerifySummary {
        let options = plan.options
        let start = ContinuousClock.now
        let secrets = plan.secrets
        let delivery = EventDelivery(
            reporters: reporters, baseURL: secrets.redact(options.baseURL), run: plan.identity, baseline: plan.baseline
        ) { secrets.redact($0) }
        delivery.started(total: plan.cases.count)
        // Checks run on the engines' threads, so one engine per core spreads them.
        let client = HTTPClient(engines: min(8, ProcessInfo.processInfo.activeProcessorCount))
        let runner = CaseRunner(
            builder: RequestBuilder(baseURL: options.baseURL, extraHeaders: options.extraHeaders),
            checker: ResponseChecker(catalog: plan.catalog, patterns: plan.patterns, secrets: secrets),
            environment: options.environment, secrets: secrets,
            refusal: Refusal(tries: options.retries, statuses: options.retryStatuses))
        let queue = RunQueue(
            count: plan.cases.count, changesState: plan.cases.contains(where: \.changesState), access: { plan.cases[$0].access },
            independent: options.independentCases, writeLimit: options.writeConcurrency
        ) { client.wakeStreams() }
        await client.stream(width: options.concurrency, options: options.http, retries: options.retries) {
            // A case that ends before it sends anything has delivered its result: take the next.
            while true {
                switch queue.next() {
                case .end: return .end
                case .notYet: return .notYet
                case .start(let position):
                    let first = runner.start(plan.cases[position]) { result in
                        queue.finished(position)
                        delivery.finished(result, at: position)
                    }
                    if let first { return .send(first) }
                }
            }
        }
        return delivery.completed(after: ContinuousClock.now - start, ran: Set(plan.cases.map(\.name)))
    }

    /// Plans and runs `set` with `options`, keeping every result: for tests and tools that want
    /// the results in memory.
    /// - Throws: ``DiagnosticsError`` before anything is sent, when the plan cannot run.
    public static func run(
        _ set: ContractSet, options: VerifyOptions, reporters: [any VerifyReporter] = []
    ) async throws(DiagnosticsError) -> VerifyReport {
        let plan = try VerifyPlan(set, options: options)
        let results = CollectedResults()
        let summary = await run(plan, reporters: [results] + reporters)
        return VerifyReport(summary: summary, results: results.results)
    }
}
