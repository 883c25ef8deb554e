@testable import ContractCoverage
import ContractModel
import ContractRequests
import Foundation
import TestSupport
import Testing

/// Inputs built to hurt `contract coverage`: sizes that would make its work grow faster than
/// what it reads, reports that would overwrite what it reads, and texts a page would act on.
@Suite(.serialized)
struct CoverageHostileTests {
    static func run(_ fixture: CoverageFixture, _ change: (inout CoverageArguments) -> Void) -> CommandResult<CoverageResult> {
        CoverageInputTests.run(fixture, change)
    }

    static func line(_ record: UsageRecord) -> String { CoverageInputTests.line(record) }

    /// A case every test of a large suite goes through (a login, a health check) is named by each
    /// of them, as is a path no fixture matches: adding the n-th test must not copy the n - 1
    /// before it.
    @Test func aCaseUsedByEveryTestOfALargeSuiteCostsLinearWork() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        func usage(_ tests: Int) -> String {
            var text = CoverageInputTests.header
            for test in 0..<tests {
                text += Self.line(UsageRecord(
                    contract: "health.get", caseName: "ok", outcome: .answered, test: "AppTests/testNumber\(test)WithAFairlyLongName()", method: "GET",
                    path: "/health"))
                text += Self.line(UsageRecord(
                    contract: nil, caseName: nil, outcome: .unmatched, test: "AppTests/testNumber\(test)WithAFairlyLongName()", method: "GET", path: "/healht"))
            }
            return text
        }
        try CoverageInputTests.write(usage(4_000), to: "small/usage-1-a.jsonl", in: fixture)
        try CoverageInputTests.write(usage(16_000), to: "large/usage-1-a.jsonl", in: fixture)
        // Read on this thread, where its CPU time is measured (a run reads usage on another).
        let growth = Growth.cpuRatio(size: 1, factor: 4) { scale in
            let read = UsageFolders.read([fixture.folder.appendingPathComponent(scale == 1 ? "small" : "large").path])
            let tally = try? read.get().tally
            #expect(tally?.byCase["health.get/ok"]?.tests.count == (scale == 1 ? 4_000 : 16_000))
            #expect(tally?.unmatched.first?.value.tests.count == (scale == 1 ? 4_000 : 16_000))
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the tests of one case cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }
}
