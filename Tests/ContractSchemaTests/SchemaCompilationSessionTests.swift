import ContractJSON
import ContractSchema
import Foundation
import Testing

/// Many schemas compiled in one session share what they reach, and must still behave exactly as
/// if each had been compiled on its own.
struct SchemaCompilationSessionTests {
    func json(_ text: String) throws -> JSONValue {
        try JSONParser(tracksLocations: false).parse(Array(text.utf8)).value
    }

    var registry: SchemaRegistry {
        get throws {
            var registry = SchemaRegistry()
            registry.register(
                try json(##"{"$defs": {"Price": {"type": "number", "minimum": 0}, "Item": {"type": "object", "properties": {"price": {"$ref": "#/$defs/Price"}}, "required": ["price"]}}}"##),
                uri: "file:///schemas/shared.json")
            return registry
        }
    }

    @Test func rootsThatShareASchemaEachValidateAsTheirOwn() throws {
        let session = try SchemaCompilationSession(registry: registry)
        let item = try session.compile(json(##"{"$ref": "shared.json#/$defs/Item"}"##), uri: "file:///schemas/a.json")
        let list = try session.compile(json(##"{"type": "array", "items": {"$ref": "shared.json#/$defs/Item"}}"##), uri: "file:///schemas/b.json")
        let price = try session.compile(uri: "file:///schemas/shared.json#/$defs/Price")
        #expect(try item.isValid(json(##"{"price": 2}"##)) && !item.isValid(json(##"{"price": -1}"##)))
        #expect(try list.isValid(json(##"[{"price": 1}, {"price": 0}]"##)) && !list.isValid(json(##"[{"price": 1}, {}]"##)))
        #expect(try price.isValid(json("3")) && !price.isValid(json(##""3""##)))
    }

    @Test func aFailedCompileReportsWhatACompileAloneReportsAndLeavesNothingBehind() throws {
        let registry = try self.registry
        let session = SchemaCompilationSession(registry: registry)
        // The broken root reaches a new schema (`#/$defs/Name` of its own document) before failing.
        let broken = try json(##"{"properties": {"name": {"$ref": "#/$defs/Name"}, "owner": {"$ref": "missing.json"}}, "$defs": {"Name": {"type": "string"}}}"##)
        var alone = registry
        alone.register(broken, uri: "file:///schemas/broken.json")
        let expected = #expect(throws: SchemaCompilationError.self) { try JSONSchema(compiling: "file:///schemas/broken.json", registry: alone) }
        let found = #expect(throws: SchemaCompilationError.self) { try session.compile(broken, uri: "file:///schemas/broken.json") }
        #expect(found?.problems == expected?.problems)
        // A later root reaching the same place compiles it again rather than reusing a node from the failed compile.
        let name = try session.compile(broken, uri: "file:///schemas/broken.json#/$defs/Name")
        #expect(try name.isValid(json(##""x""##)) && !name.isValid(json("1")))
        let item = try session.compile(json(##"{"$ref": "shared.json#/$defs/Item"}"##), uri: "file:///schemas/c.json")
        #expect(try !item.isValid(json("{}")))
    }

    @Test func aCycleAmongANewRootsSchemasIsStillFound() throws {
        let session = try SchemaCompilationSession(registry: registry)
        _ = try session.compile(json(##"{"$ref": "shared.json#/$defs/Item"}"##), uri: "file:///schemas/a.json")
        let cyclic = try json(##"{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"allOf": [{"$ref": "#/$defs/A"}, {"$ref": "shared.json#/$defs/Item"}]}}, "$ref": "#/$defs/A"}"##)
        let error = #expect(throws: SchemaCompilationError.self) { try session.compile(cyclic, uri: "file:///schemas/cyclic.json") }
        #expect(error?.problems.contains { $0.kind == .referenceCycle } == true)
    }

    @Test func aDocumentReplacedAtTheSameURIIsCompiledAfresh() throws {
        let session = try SchemaCompilationSession(registry: registry)
        let first = try session.compile(json(##"{"type": "string"}"##), uri: "file:///schemas/inline.json")
        let second = try session.compile(json(##"{"type": "integer"}"##), uri: "file:///schemas/inline.json")
        #expect(try first.isValid(json(##""x""##)) && second.isValid(json("1")) && !second.isValid(json(##""x""##)))
    }

    @Test func compilesFromManyThreadsAtOnce() async throws {
        let session = try SchemaCompilationSession(registry: registry)
        let valid = try json(##"[{"price": 1}]"##)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                let root = try json(##"{"type": "array", "items": {"$ref": "shared.json#/$defs/Item"}, "maxItems": \##(index + 1)}"##)
                group.addTask { try session.compile(root, uri: "file:///schemas/root-\(index).json").isValid(valid) }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }

    /// Every required draft 2020-12 case of the official suite whose schema declares no `$id` (ids
    /// are global to a registry, and the suite reuses them from group to group), each group's
    /// schema a root of the same session: the same verdicts as compiling each alone.
    @Test func theOfficialSuiteGivesTheSameVerdictsThroughOneSession() throws {
        let session = SchemaCompilationSession(registry: SchemaTestSuite.registry, assertsFormats: false)
        var roots: [String: JSONSchema] = [:]
        var checked = 0
        for testCase in SchemaTestSuite.cases("draft2020-12", dialect: .draft2020_12) where !Self.declaresIdentifiers(testCase.schema) {
            let key = testCase.file + "\u{0}" + testCase.group
            if roots[key] == nil {
                let uri = "http://localhost:1234/session-root-\(roots.count).json"
                guard let compiled = try? session.compile(testCase.schema, uri: uri) else {
                    Issue.record("\(testCase.id): compiles alone but not in the session")
                    continue
                }
                roots[key] = compiled
            }
            #expect(roots[key]?.isValid(testCase.data) == testCase.valid, "\(testCase.id)")
            checked += 1
        }
        #expect(checked > 900)
    }

    static func declaresIdentifiers(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object):
            object.members.contains { ["$id", "$anchor", "$dynamicAnchor", "id"].contains($0.key) || declaresIdentifiers($0.value) }
        case .array(let elements): elements.contains(where: declaresIdentifiers)
        default: false
        }
    }

    /// Two roots declaring the same `$id` (a schema copied into two contracts) each keep their
    /// own, and an `$id` only another root declares does not resolve: as when compiled alone.
    @Test func rootsThatDeclareIdentifiersStayApart() throws {
        let session = SchemaCompilationSession(registry: SchemaRegistry())
        let a = ##"{"$id": "https://example.com/item", "$ref": "#/$defs/v", "$defs": {"v": {"type": "string"}}}"##
        let b = ##"{"$id": "https://example.com/item", "$ref": "#/$defs/v", "$defs": {"v": {"type": "integer"}}}"##
        let first = try session.compile(json(a), uri: "file:///c.json?schema=/a")
        let second = try session.compile(json(b), uri: "file:///c.json?schema=/b")
        #expect(try first.isValid(json(##""x""##)) && second.isValid(json("1")) && !second.isValid(json(##""x""##)))
        #expect(throws: SchemaCompilationError.self) { try session.compile(json(##"{"$ref": "https://example.com/item"}"##), uri: "file:///d.json") }
    }

    /// A root reaches no other root of the session, even by its URI: alone, that is no schema.
    @Test func aRootCannotReachAnotherRoot() throws {
        let session = SchemaCompilationSession(registry: SchemaRegistry())
        _ = try session.compile(json(##"{"type": "string"}"##), uri: "file:///c.json?schema=/a")
        let error = #expect(throws: SchemaCompilationError.self) {
            try session.compile(json(##"{"$ref": "c.json?schema=/a"}"##), uri: "file:///c.json?schema=/b")
        }
        #expect(error?.problems.first?.kind == .unresolvableReference)
        // And the session still serves the first root's document to itself.
        let again = try session.compile(json(##"{"type": "string"}"##), uri: "file:///c.json?schema=/a")
        #expect(try again.isValid(json(##""x""##)))
    }
}
