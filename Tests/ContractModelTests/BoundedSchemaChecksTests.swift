@testable import ContractModel
import ContractJSON
import Foundation
import Testing

/// The load stage's schema checks hold a bounded number of compiled nodes
/// (``ContractLoader/checkedNodeBudget``): shared files are compiled in batches and the session
/// starts afresh past the budget. What they report must not depend on it: each problem once, in
/// its place, whichever batch or fresh session met it.
struct BoundedSchemaChecksTests {
    @Test func problemsAreReportedOnceWhereTheyAreWhenTheChecksStartAfresh() throws {
        let directory = NSTemporaryDirectory() + "bounded-checks-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/schemas", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Enough files of 101 nodes each to pass the budget twice over, in many batches.
        let files = 2 * ContractLoader.checkedNodeBudget / 100
        #expect(files > 2 * SchemaCatalog.filesPerBatch)
        for index in 0..<files {
            var properties = (0..<100).map { #""p\#($0)": {"type": "string", "minLength": 1}"# }
            // The first file's pattern does not compile; the last refers to it, so a batch after a
            // fresh start compiles it again.
            if index == 0 { properties[7] = #""p7": {"type": "string", "pattern": "("}"# }
            if index == files - 1 { properties[3] = #""p3": {"$ref": "s0000.json"}"# }
            let text = "{\"type\": \"object\",\n \"properties\": {\n" + properties.joined(separator: ",\n") + "}}"
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/schemas/s\(String(format: "%04d", index)).json"))
        }
        // A contract whose cases refer to files on both sides of the fresh starts, one example wrong.
        let cases = (0..<files).map { index in
            let example = index == files / 2 ? #"{"p1": ""}"# : #"{"p1": "x"}"#
            return #"{"name": "c\#(index)", "response": {"status": 200, "schema": {"$ref": "schemas/s\#(String(format: "%04d", index)).json"}, "example": \#(example)}}"#
        }
        let contract = #"{"id": "a", "request": {"method": "GET", "path": "/a"}, "cases": ["# + cases.joined(separator: ",\n") + "]}"
        try Data(contract.utf8).write(to: URL(fileURLWithPath: directory + "/a.json"))

        let set = try ContractLoader.load(directory: directory, keepsCaseTrees: false)
        let shown = set.diagnostics.map { "\(($0.file ?? "").split(separator: "/").suffix(2).joined(separator: "/")):\($0.location?.line ?? 0) \($0.pointer?.description ?? "") \($0.message.prefix(40))" }
        let pattern = shown.filter { $0.contains("schemas/s0000.json") && $0.contains("/properties/p7/pattern") }
        #expect(pattern.count == 1, "\(shown)")
        #expect(pattern.first?.hasPrefix("schemas/s0000.json:10 ") == true, "\(shown)")
        let example = shown.filter { $0.contains("/cases/\(files / 2)/response/example/p1") }
        #expect(example.count == 1, "\(shown)")
        // Nothing else: every other schema and example is sound.
        #expect(set.diagnostics.count == 2, "\(shown)")
    }
}
