import ContractJSON
import Testing

@testable import ContractSchema

/// Property names are matched by their bytes (JSON compares code points, `String ==` canonical
/// forms), and a body that repeats a member name is judged as its value is, the last member
/// kept: on the verdict path over a tape (which keeps every member) as on the full validation.
struct NamesByBytesAndRepeatedMembersTests {
    private func schema(_ text: String) throws -> JSONSchema {
        try JSONSchema(JSONParser(tracksLocations: false).parse(Array(text.utf8)).value)
    }

    /// The verdict over a tape parsed from the bytes, over a value, and the full validation agree.
    private func expect(_ schema: JSONSchema, _ instance: String, valid: Bool, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let tape = try JSONParser(tracksLocations: false).parseTape(Array(instance.utf8))
        #expect(schema.isValid(tape) == valid, "tape", sourceLocation: sourceLocation)
        let value = try JSONParser(tracksLocations: false).parse(Array(instance.utf8)).value
        #expect(schema.isValid(value) == valid, "value", sourceLocation: sourceLocation)
        #expect(schema.validate(value).errors.isEmpty == valid, "errors", sourceLocation: sourceLocation)
    }

    @Test func aRequiredNameIsNotMetByACanonicallyEquivalentOne() throws {
        // "é" precomposed is required; only "e" + U+0301 is declared and sent.
        let required = try self.schema(#"{"type": "object", "properties": {"e\u0301": {}}, "required": ["\u00e9"]}"#)
        try expect(required, #"{"e\u0301": 1}"#, valid: false)
        try expect(required, #"{"\u00e9": 1}"#, valid: true)
        // Both forms declared, one required: each is its own property.
        let both = try self.schema(#"{"type": "object", "properties": {"\u00e9": {}, "e\u0301": {}}, "required": ["\u00e9"]}"#)
        try expect(both, #"{"\u00e9": 1, "e\u0301": 2}"#, valid: true)
        try expect(both, #"{"e\u0301": 2}"#, valid: false)
    }

    @Test func aRepeatedMemberCountsOnceTowardsRequired() throws {
        let schema = try self.schema(#"{"type": "object", "properties": {"a": {}, "b": {}}, "required": ["a", "b"]}"#)
        try expect(schema, #"{"a": 1, "a": 1}"#, valid: false)
        try expect(schema, #"{"a": 1, "b": 2, "a": 3}"#, valid: true)
        let one = try self.schema(#"{"type": "object", "properties": {"a": {}}, "required": ["a"]}"#)
        try expect(one, #"{"a": 1, "a": 2}"#, valid: true)
    }

    @Test func requiredPositionsBeyondSixtyFourCountOnceToo() throws {
        let names = (0..<70).map { "p\($0)" }
        let properties = names.map { "\"\($0)\": {}" }.joined(separator: ", ")
        let required = ["p1", "p68", "p69"].map { "\"\($0)\"" }.joined(separator: ", ")
        let schema = try self.schema(#"{"type": "object", "properties": {\#(properties)}, "required": [\#(required)]}"#)
        try expect(schema, #"{"p1": 0, "p68": 0, "p69": 0}"#, valid: true)
        try expect(schema, #"{"p1": 0, "p68": 0, "p68": 0}"#, valid: false)
    }

    @Test func constAndEnumCompareTheLastOfARepeatedMember() throws {
        let const = try self.schema(#"{"const": {"a": 1, "b": 1}}"#)
        try expect(const, #"{"a": 1, "a": 1}"#, valid: false)
        try expect(const, #"{"a": 1, "b": 1}"#, valid: true)
        let enumeration = try self.schema(#"{"enum": [{"a": 2}]}"#)
        try expect(enumeration, #"{"a": 1, "a": 2}"#, valid: true)
        try expect(enumeration, #"{"a": 2, "a": 1}"#, valid: false)
    }

    /// The same verdict whatever the array's length (past 32 items, values are hashed).
    @Test(arguments: [0, 40])
    func uniqueItemsCompareTheLastOfARepeatedMember(padding: Int) throws {
        let schema = try self.schema(#"{"uniqueItems": true}"#)
        let pad = (0..<padding).map { ", \($0)" }.joined()
        try expect(schema, #"[{"a": 1, "a": 1}, {"a": 1, "b": 2}\#(pad)]"#, valid: true)
        try expect(schema, #"[{"a": 1, "a": 2}, {"a": 2}\#(pad)]"#, valid: false)
        try expect(schema, #"[{"a": 1, "b": 2}, {"b": 2, "a": 1}\#(pad)]"#, valid: false)
    }

    @Test func multipleOfIsExactBeyondSixtyFourBits() throws {
        let one = try self.schema(#"{"multipleOf": 1}"#)
        try expect(one, "1.0000000000000000001", valid: false)
        try expect(one, "100000000000000000000000", valid: true)
        try expect(one, "1.0000000000000000000", valid: true)
        let cent = try self.schema(#"{"multipleOf": 0.01}"#)
        try expect(cent, "1e-400", valid: false)
        try expect(cent, "12345678901234567890.25", valid: true)
        try expect(cent, "12345678901234567890.255", valid: false)
    }
}
