import ContractHTTP
import ContractModel
import Foundation

/// The execute stage: runs a plan's cases against its server and tells every reporter what
/// happens, as it happens.
public enum Verifier {
    /// Runs every case of `plan`, at most `concurrency` requests in flight, in plan order except
    /// where a case must wait for one on the same resources (``RunQueue``). Each reporter gets
    /// `started`, a `finished` per case as it ends, and `completed`, on the calling task.
    public static func run(_ plan: VerifyPlan, reporters: [any VerifyReporter]) async -> VerifySummary {
        let options = plan.options
        let start = ContinuousClock.now
        let baseURL = plan.secrets.redact(options.baseURL)
        var summary = VerifySummary(baseURL: baseURL)
        var listening = reporters.map { Optional($0) }
        func tell(_ event: VerifyEvent) {
            for index in listening.indices {
                guard let reporter = listening[index] else { continue }
                do {
                    try reporter.receive(event)
                } catch {
                    // The others still get every event; the caller decides what a lost report means.
                    summary.reporterErrors.append(plan.secrets.redact("\(error)"))
                    listening[index] = nil
                }
            }
        }
        tell(.started(total: plan.cases.count, baseURL: baseURL))

        // Checks run on the engines' threads, so one engine per core spreads them.
        let client = HTTPClient(engines: min(8, ProcessInfo.processInfo.activeProcessorCount))
        let runner = CaseRunner(
            builder: RequestBuilder(baseURL: options.baseURL, extraHeaders: options.extraHeaders),
            checker: ResponseChecker(catalog: plan.catalog, patterns: plan.patterns, secrets: plan.secrets),
            environment: options.environment, secrets: plan.secrets)
        let queue = RunQueue(
            count: plan.cases.count, changesState: plan.cases.contains(where: \.changesState), access: { plan.cases[$0].access },
            independent: options.independentCases
        ) { client.wakeStreams() }
        let finished = ResultCollector()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await client.stream(width: options.concurrency, options: options.http, retries: options.retries) {
                    switch queue.next() {
                    case .end: return .end
                    case .notYet: return .notYet
                    case .start(let position):
                        return .send(runner.start(plan.cases[position]) { result in
                            queue.finished(position)
                            finished.add(position, result)
                        })
                    }
                }
                finished.finish()
            }
            while true {
                let batch = await finished.next()
                if batch.isEmpty { break }
                for (position, result) in batch {
                    summary.count(result)
                    tell(.finished(result, position: position))
                }
            }
        }
        summary.duration = ContinuousClock.now - start
        tell(.completed(summary))
        return summary
    }

    /// Plans and runs `set` with `options`, keeping every result: for tests and tools that want
    /// the results in memory.
    /// - Throws: ``VerifyPlanError`` before anything is sent, when the plan cannot run.
    public static func run(
        _ set: ContractSet, options: VerifyOptions, reporters: [any VerifyReporter] = []
    ) async throws(VerifyPlanError) -> VerifyReport {
        let plan = try VerifyPlan(set, options: options)
        let results = CollectedResults()
        let summary = await run(plan, reporters: [results] + reporters)
        return VerifyReport(summary: summary, results: results.results)
    }
}
