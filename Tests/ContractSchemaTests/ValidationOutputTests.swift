import ContractJSON
import ContractSchema
import Testing

/// What a failed validation says: every error, where in the instance, which keyword, and a
/// message naming what was expected and what was found.
struct ValidationOutputTests {
    let page: JSONValue = try! JSONParser().parse(
        """
        {
          "$id": "https://example.com/page.json",
          "type": "object",
          "required": ["data", "total"],
          "additionalProperties": false,
          "properties": {
            "data": { "type": "array", "items": { "$ref": "#/$defs/Product" } },
            "total": { "type": "integer", "minimum": 0 }
          },
          "$defs": {
            "Money": {
              "type": "object",
              "properties": { "amount": { "type": "number" }, "currency": { "enum": ["KRW", "USD"] } }
            },
            "Product": {
              "type": "object",
              "required": ["name"],
              "properties": {
                "id": { "type": "string", "format": "uuid" },
                "name": { "type": "string", "minLength": 1 },
                "price": { "$ref": "#/$defs/Money" }
              }
            }
          }
        }
        """
    ).value

    func errors(_ instance: String, assertsFormats: Bool = true) throws -> [String] {
        let schema = try JSONSchema(page, uri: "https://example.com/page.json", assertsFormats: assertsFormats)
        let value = try JSONParser().parse(instance).value
        let result = schema.validate(value)
        #expect(schema.isValid(value) == result.isValid)
        return result.errors.map(\.description)
    }

    @Test func reportsEveryErrorWithBothLocations() throws {
        let found = try errors(#"{"data": [{"name": "a"}, {"name": "", "price": {"amount": "12,00", "currency": "JPY"}}], "totl": 1}"#)
        #expect(found == [
            "(root): missing required property 'total' (at https://example.com/page.json#/required)",
            "/data/1/name: expected at least 1 character, found 0 in string '' (at https://example.com/page.json#/$defs/Product/properties/name/minLength)",
            "/data/1/price/amount: expected number, found string '12,00' (at https://example.com/page.json#/$defs/Money/properties/amount/type)",
            "/data/1/price/currency: expected one of \"KRW\", \"USD\", found string 'JPY' (at https://example.com/page.json#/$defs/Money/properties/currency/enum)",
            "(root): unexpected property 'totl', did you mean 'total'? (at https://example.com/page.json#/additionalProperties)",
        ])
    }

    @Test func keywordLocationFollowsReferences() throws {
        let schema = try JSONSchema(page, uri: "https://example.com/page.json")
        let result = schema.validate(try JSONParser().parse(#"{"data": [{"name": 5}], "total": 0}"#).value)
        #expect(result.errors.map(\.keywordLocation.description) == ["/properties/data/items/$ref/properties/name/type"])
        #expect(result.errors.map(\.instanceLocation.description) == ["/data/0/name"])
        #expect(result.errors.map(\.keyword) == ["type"])
    }

    @Test func formatsAreAssertedUnlessSwitchedOff() throws {
        let instance = #"{"data": [{"name": "a", "id": "not-a-uuid"}], "total": 1}"#
        #expect(try errors(instance) == [
            "/data/0/id: expected a valid uuid, found string 'not-a-uuid' (at https://example.com/page.json#/$defs/Product/properties/id/format)",
        ])
        #expect(try errors(instance, assertsFormats: false).isEmpty)
    }

    @Test func unresolvableReferencesAreCompileErrors() {
        let schema: JSONValue = ["properties": ["a": ["$ref": "other.json#/x"], "b": ["$ref": "#/$defs/missing"]]]
        let error = #expect(throws: SchemaCompilationError.self) { try JSONSchema(schema, uri: "file:///schemas/a.json") }
        #expect(error?.problems.map(\.description).sorted() == [
            "file:///schemas/a.json#/properties/a/$ref: unresolvable reference 'file:///schemas/other.json#/x': no schema is registered at 'file:///schemas/other.json'",
            "file:///schemas/a.json#/properties/b/$ref: reference 'file:///schemas/a.json#/$defs/missing' points to nothing",
        ])
    }

    @Test func referencesResolveThroughTheRegistryOnly() throws {
        var registry = SchemaRegistry()
        registry.register(["type": "integer"], uri: "file:///schemas/id.json")
        let schema = try JSONSchema(["items": ["$ref": "id.json"]], uri: "file:///schemas/list.json", registry: registry)
        #expect(schema.isValid([1, 2]))
        #expect(!schema.isValid([1, "2"]))
    }

    @Test func exactDecimalArithmetic() throws {
        let schema = try JSONSchema(["multipleOf": .number(JSONNumber("0.01")!)])
        #expect(schema.isValid(.number(JSONNumber("19.99")!)))
        #expect(!schema.isValid(.number(JSONNumber("19.999")!)))
        #expect(schema.isValid(.number(JSONNumber("123456789012345678901234567890.01")!)))
    }

    @Test func validatesFromManyThreadsAtOnce() async throws {
        let schema = try JSONSchema(page, uri: "https://example.com/page.json")
        let valid = try JSONParser().parse(#"{"data": [{"name": "a"}], "total": 1}"#).value
        let invalid = try JSONParser().parse(#"{"data": [{"name": 1}], "total": -1}"#).value
        let verdicts = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask { index.isMultiple(of: 2) ? schema.isValid(valid) : !schema.isValid(invalid) && schema.validate(invalid).errors.count == 2 }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        // All 64 answered, so an empty group cannot pass.
        #expect(verdicts.count == 64 && verdicts.allSatisfy { $0 })
    }
}
