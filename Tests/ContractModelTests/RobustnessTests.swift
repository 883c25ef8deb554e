import ContractJSON
import ContractModel
import Testing

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
                "request": ["pathParams": ["id": "${capture:id}"], "headers": ["X": nil], "text": "t"],
                "response": ["status": [204, "2XX"], "headers": ["ETag": ["present": true], "A": "b"], "schema": ["$ref": "#/$defs/x", "$defs": ["x": true]], "example": 1],
            ],
        ],
    ]

    static let replacements: [JSONValue] = [nil, true, 0, .number(JSONNumber("-1.5")!), "", "${", "{", [], [[]], [:], ["x": nil]]

    static func pointers(in value: JSONValue, at pointer: JSONPointer = .root) -> [JSONPointer] {
        switch value {
        case .object(let object): [pointer] + object.members.flatMap { pointers(in: $0.value, at: pointer.appending($0.key)) }
        case .array(let elements): [pointer] + elements.enumerated().flatMap { pointers(in: $0.element, at: pointer.appending($0.offset)) }
        default: [pointer]
        }
    }

    static func replacing(_ pointer: JSONPointer, in value: JSONValue, with replacement: JSONValue) -> JSONValue {
        guard let first = pointer.tokens.first else { return replacement }
        let rest = JSONPointer(tokens: Array(pointer.tokens.dropFirst()))
        switch value {
        case .object(var object):
            object[first] = object[first].map { replacing(rest, in: $0, with: replacement) }
            return .object(object)
        case .array(var elements):
            if let index = Int(first) { elements[index] = replacing(rest, in: elements[index], with: replacement) }
            return .array(elements)
        default:
            return value
        }
    }

    @Test func theBaseContractIsValid() {
        let text = CanonicalJSONWriter().string(Self.contract)
        let set = ContractLoader.load(files: [SourceFile(path: "c.json", relativePath: "c.json", bytes: Array(text.utf8))], directory: ".")
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics.map(\.rendered))")
    }

    @Test func everyValueReplacedByEveryTypeLoadsWithoutCrashing() {
        var variants = 0
        for pointer in Self.pointers(in: Self.contract) {
            for replacement in Self.replacements {
                let mutated = Self.replacing(pointer, in: Self.contract, with: replacement)
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
