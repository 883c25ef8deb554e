import ContractJSON
import Foundation
import Testing
import TestSupport

@testable import ContractOpenAPI

/// Documents that are odd in every way a value can be: every value of a real document replaced by
/// a value of each other type. The import never crashes: it succeeds, or stops with located errors.
struct RobustnessTests {
    static func values(of value: JSONValue, at pointer: JSONPointer = .root) -> [JSONPointer] {
        switch value {
        case .object(let object): [pointer] + object.members.flatMap { values(of: $0.value, at: pointer.appending($0.key)) }
        case .array(let elements): [pointer] + elements.enumerated().flatMap { values(of: $0.element, at: pointer.appending($0.offset)) }
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
            if let index = Int(first), elements.indices.contains(index) { elements[index] = replacing(rest, in: elements[index], with: replacement) }
            return .array(elements)
        default:
            return value
        }
    }

    @Test func everyValueReplacedByEveryTypeNeverCrashes() throws {
        let text = try String(contentsOf: SharedData.url("openapi/v3.0/petstore.yaml"), encoding: .utf8)
        let (document, _) = try YAMLReader.read(text)
        let replacements: [JSONValue] = [.null, 7, "text", [], [:]]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("robust-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        var imported = 0
        var refused = 0
        for pointer in Self.values(of: document) where !pointer.isRoot {
            for replacement in replacements {
                let mutated = Self.replacing(pointer, in: document, with: replacement)
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
