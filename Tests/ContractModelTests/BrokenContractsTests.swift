import ContractJSON
import ContractModel
import Foundation
import TestSupport
import Testing

/// The lint goldens of this target.
let golden = GoldenFiles()

/// `Golden/broken/` holds one file per lint rule, each with exactly one problem.
struct BrokenContractsTests {
    static func load() throws -> ContractSet {
        let directory = golden.directory.appendingPathComponent("broken").path
        // Shown as `broken/…` whatever the checkout path, so the golden output is machine-independent.
        let files = try ContractSourceReader.read(directory: directory).map {
            SourceFile(path: "broken/" + $0.relativePath, relativePath: $0.relativePath, bytes: $0.bytes)
        }
        return ContractLoader.load(files: files, directory: "broken")
    }

    @Test func textOutputMatchesGolden() throws {
        let report = LintReport(try Self.load())
        try golden.check(report.renderText(), against: "broken.txt")
        #expect(report.exitCode == 2)
    }

    @Test func jsonOutputMatchesGolden() throws {
        let report = LintReport(try Self.load())
        try golden.check(report.renderJSON(), against: "broken.json")
        let parsed = try JSONParser().parse(report.renderJSON()).value
        #expect(parsed.objectValue?["errorCount"] == .number(JSONNumber(report.errorCount)))
    }

    /// Exactly one diagnostic per broken file: no cascades, nothing missed.
    @Test func oneDiagnosticPerProblem() throws {
        let set = try Self.load()
        let directory = golden.directory.appendingPathComponent("broken").path
        // The cycle that ref-cycle.json reaches is reported where it is: in schemas/loop-a.json.
        let clean: Set<String> = [
            "duplicate-id-a.json", "ref-cycle.json", "ref-recursive-is-fine.json", "schemas/product.json", "schemas/tree.json", "schemas/loop-b.json",
        ]
        let files = try ContractSourceReader.read(directory: directory)
        // The folder was read: every clean file is in it, and broken ones besides.
        #expect(clean.isSubset(of: files.map(\.relativePath)), "\(files.map(\.relativePath))")
        #expect(files.count > clean.count, "\(files.count) files in '\(directory)'")
        for file in files {
            let count = set.diagnostics.count { $0.file == "broken/" + file.relativePath }
            #expect(count == (clean.contains(file.relativePath) ? 0 : 1), "\(file.relativePath)")
        }
    }

    @Test func sortedByFileAndPosition() throws {
        let diagnostics = try Self.load().diagnostics
        #expect(!diagnostics.isEmpty, "an empty list is sorted and located too")
        #expect(diagnostics == diagnostics.sorted())
        #expect(diagnostics.allSatisfy { $0.location != nil })
    }
}
