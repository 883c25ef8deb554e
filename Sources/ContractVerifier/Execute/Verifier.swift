import ContractHTTP
import ContractModel

/// Receives a run's events. Reporters are peers: each gets every event, in plan order, on the
/// verifier's task, whatever the concurrency of the requests.
public protocol VerifyReporter: AnyObject {
    func started(total: Int, baseURL: String)
    func finished(_ result: CaseResult)
    func completed(_ report: VerifyReport) throws
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
        let width = max(1, options.concurrency)
        await withTaskGroup(of: (Int, CaseResult).self) { group in
            var next = 0
            func startNext() {
                guard next < plan.cases.count else { return }
                let index = next
                let planned = plan.cases[index]
                group.addTask { (index, await runner.run(planned)) }
                next += 1
            }
            for _ in 0..<width { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                // Results reach reporters in plan order, so output is stable whatever finishes first.
                while delivered < results.count, let ready = results[delivered] {
                    for reporter in reporters { reporter.finished(ready) }
                    delivered += 1
                }
                startNext()
            }
        }
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
