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
