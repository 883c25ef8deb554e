import ContractCoverage
import ContractModel
import Foundation
import TestSupport
import Testing

/// `contract coverage` on a small API its server keeps, then on the same API drifting: every
/// format pinned by a golden file, and the gate failing on the drifting server, naming the cases
/// the app's tests rely on that the server broke.
@Suite(.serialized)
struct CoverageGoldenTests {
    static let golden = GoldenFiles()

    /// The report's server runs on a port the kernel picks: the one thing that differs from run to run.
    static func stable(_ text: String) -> String {
        text.replacingOccurrences(of: #"127\.0\.0\.1:[0-9]+"#, with: "127.0.0.1:PORT", options: .regularExpression)
    }

    static func run(drifting: Bool) async throws -> (CommandResult<CoverageResult>, [String: String]) {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try await fixture.verify(drifting: drifting, report: "verify.json")
        try fixture.writeUsage(in: "usage")
        var arguments = CoverageArguments(directory: "contracts", workingDirectory: fixture.folder.path)
        arguments.usageFolders = ["usage"]
        arguments.verifyReports = ["verify.json"]
        arguments.gate = CoverageGate(failOn: [.usedUnverified, .invalidRequests])
        arguments.reports = CoverageReportKind.allCases.map { "\($0.rawValue)=coverage.\($0.rawValue)" }
        let result = CoverageRun.run(arguments)
        var files: [String: String] = [:]
        for kind in CoverageReportKind.allCases {
            files[kind.rawValue] = try String(contentsOf: fixture.folder.appendingPathComponent("coverage.\(kind.rawValue)"), encoding: .utf8)
        }
        return (result, files)
    }

    @Test(arguments: [false, true])
    func everyFormatIsPinned(drifting: Bool) async throws {
        let (result, files) = try await Self.run(drifting: drifting)
        let name = drifting ? "drifting" : "kept"
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.rendered))")
        try Self.golden.check(Self.stable(result.output), against: "\(name).txt")
        for (kind, text) in files { try Self.golden.check(Self.stable(text), against: "\(name).\(kind)") }
    }

    @Test func theGateFailsOnTheDriftingServerNamingTheCasesTheTestsRelyOn() async throws {
        let (kept, _) = try await Self.run(drifting: false)
        // The server keeps every case; the one gap is the app's own request that broke its contract.
        #expect(kept.exitCode == 1)
        #expect(kept.summary?.gaps.map(\.rule) == ["invalid-requests", "invalid-requests"])

        let (drifting, _) = try await Self.run(drifting: true)
        #expect(drifting.exitCode == 1)
        let broken = drifting.summary?.gaps.filter { $0.rule == "used-unverified" }.compactMap(\.subject)
        #expect(broken == ["pets.create/created", "pets.get/found"])
        #expect(drifting.output.contains("pets.get/found: used by 2 tests (PetClientTests/testFetch, PetClientTests/testFetchTwice), failed verification: body: /: missing required property 'name'"))
        #expect(drifting.output.contains("pets.create/created: used by 1 test (PetFlowTests/createsAPet()), failed verification: status: expected status 201, found 200"))
        // The other cases the drifting server broke are used by no test: not a gap of the app's.
        let notPassed = drifting.summary?.cases.filter { $0.verification != .passed }.map(\.id)
        #expect(notPassed == ["pets.create/created", "pets.get/found"])
    }
}
