import ContractHTTP
import ContractModel
import Foundation

/// Receives a run's events. Reporters are peers: each gets every event, in plan order, on the
/// verifier's task, whatever the concurrency of the requests.
public protocol VerifyReporter: AnyObject {
    func started(total: Int, baseURL: String)
    func finished(_ result: CaseResult)
    func completed(_ report: VerifyReport) throws
}

/// Hands out case indices, each once, from any thread.
private final class CaseQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var position = 0
    private let indices: [Int]

    init(indices: [Int]) {
        self.indices = indices
    }

    func next() -> Int? {
        lock.withLock {
            guard position < indices.count else { return nil }
            defer { position += 1 }
            return indices[position]
        }
    }
}

/// `contract verify` as a library: plan, execute with bounded concurrency, check, report.
public struct Verifier: Sendable {
    public let options: VerifyOptions

    public init(options: VerifyOptions) {
        self.options = options
    }

    /// Runs the selected cases of `set` against `options.baseURL`.
    /// - Throws: ``VerifyPlanError`` before anything is sent, when the plan cannot run.
    public func run(_ set: ContractSet, reporters: [VerifyReporter]) async throws(VerifyPlanError) -> VerifyReport {
        let plan = try VerifyPlan(set, options: options)
        guard !plan.cases.isEmpty else {
            throw VerifyPlanError(problems: ["no case matches the selection (--id, --tag, --shard)"])
        }
        let clock = ContinuousClock()
        let start = clock.now
        // Checks run on the engines' threads (see `stream`), so one engine per core spreads them.
        let client = HTTPClient(engines: min(8, ProcessInfo.processInfo.activeProcessorCount))
        let runner = CaseRunner(
            client: client, builder: RequestBuilder(baseURL: options.baseURL, extraHeaders: options.extraHeaders),
            checker: ResponseChecker(
                catalog: SchemaCatalog(set, assertsFormats: options.assertsFormats), patterns: plan.patterns, secrets: plan.secrets), options: options,
            secrets: plan.secrets)
        for reporter in reporters { reporter.started(total: plan.cases.count, baseURL: plan.secrets.redact(options.baseURL)) }

        var report = VerifyReport(baseURL: plan.secrets.redact(options.baseURL), results: [], duration: .zero)
        // Results that finished ahead of an earlier case wait here; only they are held, not a slot
        // per case (until a case with setup steps, which runs after the streamed ones).
        var waiting: [Int: CaseResult] = [:]
        var delivered = 0
        // Cases without setup steps stream through the HTTP client: the next request starts on the
        // client's thread the moment one finishes, and a transient transport error is retried in
        // place. Cases with setup steps then run on workers that take the next case as soon as
        // they finish one.
        let streamed = plan.cases.indices.filter { plan.cases[$0].testCase.setup.isEmpty }
        let withSetup = Array(Set(plan.cases.indices).subtracting(streamed)).sorted()
        let streamQueue = CaseQueue(indices: streamed)
        let workQueue = CaseQueue(indices: withSetup)
        let finished = ResultCollector()
        let width = max(1, options.concurrency)
        await withTaskGroup(of: Void.self) { group in
            // One phase after the other, so that no more than `width` requests are ever in flight.
            group.addTask {
                if !streamed.isEmpty {
                    await client.stream(width: width, options: options.http, retries: options.retries) {
                        guard let index = streamQueue.next() else { return nil }
                        let (request, complete) = runner.prepare(plan.cases[index])
                        return (request, { outcome, attempts in finished.add(index, complete(outcome, attempts)) })
                    }
                }
                await withTaskGroup(of: Void.self) { workers in
                    for _ in 0..<min(width, withSetup.count) {
                        workers.addTask {
                            while let index = workQueue.next() { finished.add(index, await runner.run(plan.cases[index])) }
                        }
                    }
                }
                finished.finish()
            }
            while true {
                let batch = await finished.next()
                if batch.isEmpty { break }
                for (index, result) in batch { waiting[index] = result }
                // Results reach reporters in plan order, so output is stable whatever finishes first.
                while let ready = waiting.removeValue(forKey: delivered) {
                    for reporter in reporters { reporter.finished(ready) }
                    report.add(ready, keeping: options.keepsPassingResults)
                    delivered += 1
                }
            }
        }
        report.duration = clock.now - start
        for reporter in reporters {
            do {
                try reporter.completed(report)
            } catch {
                // Every reporter still gets its turn; the caller decides what a lost report means.
                report.reporterErrors.append(plan.secrets.redact("\(error)"))
            }
        }
        return report
    }
}
