import ContractJSON
import ContractSchema
import Testing

struct SchemaDialectTests {
    @Test(arguments: [
        ("https://json-schema.org/draft/2020-12/schema", SchemaDialect.draft2020_12),
        ("https://json-schema.org/draft/2020-12/schema#", .draft2020_12),
        ("http://json-schema.org/draft-07/schema#", .draft7),
        ("http://json-schema.org/draft-07/schema", .draft7),
    ])
    func recognisesMetaSchemaURIs(_ uri: String, _ dialect: SchemaDialect) {
        #expect(SchemaDialect(metaSchemaURI: uri) == dialect)
    }

    @Test func rejectsOthers() {
        #expect(SchemaDialect(metaSchemaURI: "http://json-schema.org/draft-04/schema#") == nil)
    }
}

struct RootDialectTests {
    /// A draft 7 root read where 2020-12 is the default: its `$id` beside `$ref` is ignored, as
    /// draft 7 has it, so `#/definitions/…` means this document.
    @Test func aDraft7RootsIDBesideRefIsReadInDraft7() throws {
        let schema = try JSONParser().parse(Array("""
            {"$schema": "http://json-schema.org/draft-07/schema#", "$id": "http://example.com/a.json",
             "definitions": {"bar": {"type": "string"}}, "$ref": "#/definitions/bar"}
            """.utf8)).value
        let compiled = try JSONSchema(schema, uri: "file:///schemas/a.json")
        #expect(compiled.isValid(.string("x")))
        #expect(!compiled.isValid(.number(JSONNumber(1))))
    }
}
