import ContractFixtures
import ContractModel
import Foundation
import TestSupport
import Testing

/// `contract fixtures` as a library call: the result a caller (or the executable) gets, with its
/// summary in words, its exit code and its diagnostics, without the binary.
struct FixturesRunTests {
    let contracts = SharedData.packageRoot.appendingPathComponent("contracts").path

    func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-run-\(UUID().uuidString)").path
    }

    @Test func writingThenCheckingSaysWhatHappenedInWords() throws {
        let out = scratch()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let written = FixturesRun.run(directory: contracts, out: out, check: false)
        #expect(written.exitCode == 0 && written.diagnostics.isEmpty)
        guard case .written(let summary, let count)? = written.summary else { Issue.record("no summary: \(written)"); return }
        #expect(count > 0 && summary.written.count == count)
        #expect(written.output == "\(count) fixtures in \(out): \(count) written, 0 unchanged, 0 removed\n")

        let clean = FixturesRun.run(directory: contracts, out: out, check: true)
        #expect(clean.exitCode == 0)
        #expect(clean.output == "\(count) fixtures up to date in \(out)\n")

        let stale = try FileManager.default.subpathsOfDirectory(atPath: out).first { $0.hasSuffix(".json") && $0.contains("/") }
        let path = try #require(stale)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: out).appendingPathComponent(path))
        let checked = FixturesRun.run(directory: contracts, out: out, check: true)
        #expect(checked.exitCode == 1)
        #expect(checked.output.hasSuffix("1 fixture out of date in \(out); run 'contract fixtures --out \(out) \(contracts)'\n"), "\(checked.output)")
        #expect(checked.output.contains(path), "\(checked.output)")
    }

    @Test func contractsWithErrorsStopTheRunWithTheirPlacesAndWhatDidNotHappen() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"{"id": "x", "request": {"method": "GET", "path": "/x"}, "cases": [{"name": "ok", "response": {"status": "two hundred"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder).appendingPathComponent("x.json"))
        let result = FixturesRun.run(directory: folder, out: scratch(), check: false)
        #expect(result.exitCode == 2 && result.summary == nil && result.output.isEmpty)
        #expect(!result.diagnostics.isEmpty && result.diagnostics.allSatisfy { $0.severity == .error && $0.file != nil })
        #expect(result.consequence == "\(result.diagnostics.count) error\(result.diagnostics.count == 1 ? "" : "s") in the contracts; no fixtures written (run 'contract lint \(folder)')")
    }

    @Test func anUnreadableDirectoryIsOneProblemWithoutAFile() {
        let result = FixturesRun.run(directory: "/nonexistent/contracts", out: scratch(), check: false)
        #expect(result.exitCode == 2)
        #expect(result.diagnostics.count == 1 && result.diagnostics.first?.file == nil, "\(result.diagnostics)")
        #expect(result.diagnostics.first?.rendered.hasPrefix("error: ") == true, "\(result.diagnostics)")
        #expect(result.consequence == nil, "no contracts to lint")
    }
}
