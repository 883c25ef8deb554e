import ContractJSON
import ContractModel
import Testing
import TestSupport

/// The loader must never crash, whatever shape a contract has: every value of a valid contract
/// is replaced in turn by values of every other type, and each variant must load with located
/// diagnostics (or cleanly, where the new value happens to be allowed).
struct RobustnessTests {
    static let contract: JSONValue = [
        "id": "products.delete",
        "tags": ["products"],
        "request": ["method": "DELETE", "path": "/api/products/{id}", "headers": ["Authorization": "Bearer ${env:T}"], "query": ["a": 1]],
        "cases": [
            [
                "name": "deleted",
                "setup": [["name": "create", "request": ["method": "POST", "path": "/p", "body": ["n": "x"]], "status": 201, "capture": ["id": "/id"]]],
                "request": ["pathParams": ["id": "${capture:id}"], "headers": ["X": .null], "text": "t"],
                "response": ["status": [204, "2XX"], "headers": ["ETag": ["present": true], "A": "b"], "schema": ["$ref": "#/$defs/x", "$defs": ["x": true]], "example": 1],
            ],
        ],
    ]

    static let replacements: [JSONValue] = [.null, true, 0, .number(JSONNumber("-1.5")!), "", "${", "{", [], [[]], [:], ["x": .null]]

    @Test func theBaseContractIsValid() {
        let text = CanonicalJSONWriter().string(Self.contract)
        let set = ContractLoader.load(files: [SourceFile(path: "c.json", relativePath: "c.json", bytes: Array(text.utf8))], directory: ".")
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics.map(\.rendered))")
    }

    @Test func everyValueReplacedByEveryTypeLoadsWithoutCrashing() {
        var variants = 0
        for pointer in JSONMutations.pointers(in: Self.contract) {
            for replacement in Self.replacements {
                let mutated = JSONMutations.replacing(pointer, in: Self.contract, with: replacement)
                let text = CanonicalJSONWriter().string(mutated)
                let set = ContractLoader.load(
                    files: [SourceFile(path: "c.json", relativePath: "c.json", bytes: Array(text.utf8))], directory: ".")
                for diagnostic in set.diagnostics {
                    #expect(diagnostic.location != nil && !diagnostic.message.isEmpty, "\(pointer) = \(replacement)")
                }
                variants += 1
            }
        }
        #expect(variants > 400)
    }

    @Test func truncatedFilesGiveSyntaxErrorsNotCrashes() {
        let text = Array(CanonicalJSONWriter().string(Self.contract).utf8)
        for length in stride(from: 0, to: text.count - 1, by: 7) {
            let set = ContractLoader.load(
                files: [SourceFile(path: "c.json", relativePath: "c.json", bytes: Array(text[..<length]))], directory: ".")
            #expect(set.diagnostics.count == 1)
            #expect(set.diagnostics.first?.severity == .error)
        }
    }
}
