import ContractModel
import ContractOpenAPI
import Foundation
import TestSupport
import Testing

/// `contract import openapi` as a library call: the summary a person reads is made here, so it is
/// tested without the binary.
struct ImportRunTests {
    func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("import-run-\(UUID().uuidString)").path
    }

    @Test func theSummarySaysWhatWasWrittenAndWhatToDoNext() throws {
        let document = SharedData.packageRoot.appendingPathComponent("examples/MarketAPI/openapi.yaml").path
        let out = scratch()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = OpenAPIImportRun.run(document: document, out: out, values: [])
        #expect(result.exitCode == 0, "\(result.diagnostics)")
        let summary = try #require(result.summary)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("\(summary.result.contractCount) contract") == true, "\(result.output)")
        #expect(lines.first?.contains(" in \(out): \(summary.written.written.count) files written, 0 unchanged") == true, "\(result.output)")
        #expect(lines.last == "Next: contract lint \(out) && contract verify --base-url URL \(out)")
        #expect(result.diagnostics.allSatisfy { $0.severity != .error }, "warnings only: \(result.diagnostics)")

        let again = OpenAPIImportRun.run(document: document, out: out, values: [])
        #expect(again.output.contains("0 files written, \(summary.written.written.count) unchanged"), "\(again.output)")
    }

    @Test func aBadValueIsARefusedArgumentAndNothingIsWritten() {
        let out = scratch()
        let result = OpenAPIImportRun.run(document: "nowhere.yaml", out: out, values: ["novalue"])
        #expect(result.exitCode == 2 && result.refusedArguments)
        #expect(result.diagnostics.map(\.rendered) == ["error: --value must be 'NAME=VALUE', found 'novalue'"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aMissingDocumentStopsTheImportAtItsFile() {
        let out = scratch()
        let result = OpenAPIImportRun.run(document: "/nonexistent/openapi.yaml", out: out, values: [])
        #expect(result.exitCode == 2 && !result.refusedArguments)
        #expect(result.diagnostics.first?.file == "/nonexistent/openapi.yaml", "\(result.diagnostics)")
        #expect(result.consequence == "nothing was written")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
