import ContractJSON
import ContractModel
import Testing

@testable import ContractFixtures

/// Bodies synthesized from schemas spread over files and nested without end, as real imported
/// documents have them (shared components that refer to others, node trees).
struct SynthesisAcrossFilesTests {
    func plan(_ files: [String: String]) -> (fixtures: [Fixture], problems: [String]) {
        let sources = files.keys.sorted().map { SourceFile(path: "c/" + $0, relativePath: $0, bytes: Array(files[$0, default: ""].utf8)) }
        let set = ContractLoader.load(files: sources, directory: "c")
        #expect(!set.hasErrors, "\(set.diagnostics)")
        let (fixtures, problems) = FixturePlanner(set).plan()
        return (fixtures, problems.map { "\($0)" })
    }

    static func contract(_ schema: String) -> String {
        """
        { "id": "one", "request": { "method": "GET", "path": "/o" },
          "cases": [ { "name": "ok", "response": { "status": 200, "schema": \(schema) } } ] }
        """
    }

    /// An `allOf` part from another file whose own references are relative to that file, and a
    /// property two parts describe (one with an `enum`).
    @Test func allOfPartsKeepTheirFilesAndBothSidesOfAProperty() throws {
        let (fixtures, problems) = plan([
            "one.json": Self.contract(#"{ "allOf": [ { "$ref": "schemas/base.json" }, { "properties": { "kind": { "type": "string" } } } ] }"#),
            "schemas/base.json": #"{ "type": "object", "required": ["kind", "size"], "properties": { "kind": { "enum": ["only"] }, "size": { "$ref": "size.json" } } }"#,
            "schemas/size.json": #"{ "type": "integer", "enum": [42] }"#,
        ])
        #expect(problems.isEmpty, "\(problems)")
        let body = String(decoding: try #require(fixtures.first).bytes, as: UTF8.self)
        #expect(body.contains(#""kind": "only""#) && body.contains(#""size": 42"#), "\(body)")
    }

    /// `#/$defs/…` in a case's inline schema means that schema's own `$defs`, not the contract
    /// file's root; an `$anchor` names its schema.
    @Test func inlineSchemasReadTheirOwnDefinitions() throws {
        let (fixtures, problems) = plan([
            "one.json": Self.contract(##"{ "$defs": { "size": { "type": "integer", "enum": [7] }, "unit": { "$anchor": "unit", "const": "cm" } }, "type": "object", "required": ["size", "unit"], "properties": { "size": { "$ref": "#/$defs/size" }, "unit": { "$ref": "#unit" } } }"##),
        ])
        #expect(problems.isEmpty, "\(problems)")
        let body = String(decoding: try #require(fixtures.first).bytes, as: UTF8.self)
        #expect(body.contains(#""size": 7"#) && body.contains(#""unit": "cm""#), "\(body)")
    }

    /// A shared file named by its absolute `$id`, whose own relative reference resolves against
    /// that `$id` (to another file's `$id`), and a nested `$id` inside a case's schema.
    @Test func referencesByIDFindTheirFiles() throws {
        let (fixtures, problems) = plan([
            "one.json": Self.contract(##"{ "type": "object", "required": ["pet", "box"], "properties": { "pet": { "$ref": "https://example.com/schemas/pet.json" }, "box": { "$id": "https://example.com/box.json", "$defs": { "side": { "const": 3 } }, "type": "object", "required": ["side"], "properties": { "side": { "$ref": "#/$defs/side" } } } } }"##),
            "schemas/a/pet.json": #"{ "$id": "https://example.com/schemas/pet.json", "type": "object", "required": ["tag"], "properties": { "tag": { "$ref": "tag.json" } } }"#,
            "schemas/b/tag.json": #"{ "$id": "https://example.com/schemas/tag.json", "const": "good" }"#,
        ])
        #expect(problems.isEmpty, "\(problems)")
        let body = String(decoding: try #require(fixtures.first).bytes, as: UTF8.self)
        #expect(body.contains(#""tag": "good""#) && body.contains(#""side": 3"#), "\(body)")
    }

    /// A file reached only by its `$id` is part of what a fixture was built from: changing it
    /// makes the fixture stale for `--check`.
    @Test func aFileReachedByIDIsInTheSourceHash() throws {
        let contract = Self.contract(#"{ "$ref": "https://example.com/schemas/pet.json" }"#)
        let pet = #"{ "$id": "https://example.com/schemas/pet.json", "type": "object", "required": ["tag"], "properties": { "tag": { "$ref": "tag.json" } } }"#
        let first = plan(["one.json": contract, "schemas/a/pet.json": pet, "schemas/b/tag.json": #"{ "$id": "https://example.com/schemas/tag.json", "const": "good" }"#])
        let second = plan(["one.json": contract, "schemas/a/pet.json": pet, "schemas/b/tag.json": #"{ "$id": "https://example.com/schemas/tag.json", "const": "better" }"#])
        #expect(first.problems.isEmpty && second.problems.isEmpty, "\(first.problems) \(second.problems)")
        let before = try #require(first.fixtures.first).sourceHash
        let after = try #require(second.fixtures.first).sourceHash
        #expect(before != after, "tag.json is reached through pet.json's $id")
    }

    /// A node whose children are nodes: the value ends where only required members remain.
    @Test func recursiveTreesEnd() throws {
        let (fixtures, problems) = plan([
            "one.json": Self.contract(#"{ "$ref": "schemas/node.json" }"#),
            "schemas/node.json": #"{ "type": "object", "required": ["name", "children"], "properties": { "name": { "type": "string" }, "children": { "type": "array", "items": { "$ref": "node.json" } }, "extra": { "$ref": "node.json" } } }"#,
        ])
        #expect(problems.isEmpty, "\(problems)")
        #expect(fixtures.count == 1)
    }
}
