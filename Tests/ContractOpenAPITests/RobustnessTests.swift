import ContractJSON
import Foundation
import Testing
import TestSupport

@testable import ContractOpenAPI

/// Documents that are odd in every way a value can be: every value of a real document replaced by
/// a value of each other type. The import never crashes: it succeeds, or stops with located errors.
struct RobustnessTests {
    @Test func everyValueReplacedByEveryTypeNeverCrashes() throws {
        let text = try String(contentsOf: SharedData.url("openapi/v3.0/petstore.yaml"), encoding: .utf8)
        let (document, _) = try YAMLReader.read(text)
        let replacements: [JSONValue] = [.null, 7, "text", [], [:]]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("robust-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        var imported = 0
        var refused = 0
        for pointer in JSONMutations.pointers(in: document) where !pointer.isRoot {
            for replacement in replacements {
                let mutated = JSONMutations.replacing(pointer, in: document, with: replacement)
                try Data(CanonicalJSONWriter(sortsKeys: false).bytes(mutated)).write(to: url)
                do {
                    _ = try OpenAPIImporter.importDocument(path: url.path, shownAs: "petstore.json")
                    imported += 1
                } catch {
                    #expect(!error.diagnostics.isEmpty)
                    #expect(!error.diagnostics.contains { $0.message.contains("the import made an invalid contract") }, "\(pointer) = \(replacement): \(error.diagnostics.map(\.rendered))")
                    refused += 1
                }
            }
        }
        #expect(imported > 0 && refused > 0)
    }

    @Test func deepNestingIsRefusedNotAStackOverflow() throws {
        let deep = "openapi: 3.0.0\ninfo: " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n"
        #expect(throws: YAMLReader.Failure.self) { try YAMLReader.read(deep) }
    }
}
