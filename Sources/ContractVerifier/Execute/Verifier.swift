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

/// Hands out case indices to the workers, each once.
private final class CaseQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    func next() -> Int? {
        lock.withLock {
            guard nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
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
        let client = HTTPClient()
        let runner = CaseRunner(
            client: client, builder: RequestBuilder(baseURL: options.baseURL, extraHeaders: options.extraHeaders),
            checker: ResponseChecker(catalog: SchemaCatalog(set, assertsFormats: options.assertsFormats), patterns: plan.patterns), options: options,
            secrets: plan.secrets)
        for reporter in reporters { reporter.started(total: plan.cases.count, baseURL: plan.secrets.redact(options.baseURL)) }

        var results = [CaseResult?](repeating: nil, count: plan.cases.count)
        var delivered = 0
        // Workers take the next case as soon as they finish one, so the time a result takes to
        // reach the reporters never delays the next request.
        let queue = CaseQueue(count: plan.cases.count)
        let (finished, yield) = AsyncStream<(Int, CaseResult)>.makeStream()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(max(1, options.concurrency), plan.cases.count) {
                group.addTask {
                    while let index = queue.next() { yield.yield((index, await runner.run(plan.cases[index]))) }
                }
            }
            var received = 0
            for await (index, result) in finished {
                results[index] = result
                // Results reach reporters in plan order, so output is stable whatever finishes first.
                while delivered < results.count, let ready = results[delivered] {
                    for reporter in reporters { reporter.finished(ready) }
                    delivered += 1
                }
                received += 1
                if received == results.count { break }
            }
        }
        yield.finish()
        var report = VerifyReport(baseURL: plan.secrets.redact(options.baseURL), results: results.compactMap { $0 }, duration: clock.now - start)
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
