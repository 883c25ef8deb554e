import ContractVerifier
import Testing

/// Events and outcomes are structs read through accessors, so one added later breaks no reporter.
struct EventValueTests {
    @Test func anEventIsReadThroughItsAccessors() throws {
        let result = try #require(ReportTests.report.results.first)
        let started = VerifyEvent.started(total: 3, baseURL: "http://127.0.0.1:1")
        #expect(started.started?.total == 3 && started.started?.baseURL == "http://127.0.0.1:1")
        #expect(started.finished == nil && started.completed == nil)
        let finished = VerifyEvent.finished(result, position: 2)
        #expect(finished.finished?.result.name == result.name && finished.finished?.position == 2 && finished.started == nil)
        let completed = VerifyEvent.completed(ReportTests.report.summary)
        #expect(completed.completed?.total == ReportTests.report.summary.total && completed.finished == nil)
    }

    @Test func anOutcomeIsItsWord() {
        let outcomes: [CaseResult.Outcome] = [.passed, .failed, .error]
        #expect(outcomes.map(\.rawValue) == ["passed", "failed", "error"])
        #expect(outcomes.map { CaseResult.Outcome(rawValue: $0.rawValue) } == outcomes)
        #expect(CaseResult.Outcome(rawValue: "skipped") == nil)
        #expect("\(CaseResult.Outcome.failed)" == "failed")
    }
}
