import ContractJSON
import ContractModel
@testable import ContractOpenAPI
import Foundation
import Testing

/// The document's parameters become the contract's typed `request.parameters`: schema, required,
/// style and explode, from OpenAPI 3 and from Swagger 2.0's `type`/`format`/`collectionFormat`.
struct ParameterImportTests {
    let edge = EdgeCaseTests()

    func parameters(_ result: ImportResult, _ file: String) throws -> JSONValue? {
        let contract = try JSONParser().parse(Array(edge.text(result, file).utf8)).value
        return contract.objectValue?["request"]?.objectValue?["parameters"]
    }

    @Test func openAPI3ParametersAreDescribedAndLintClean() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /shops/{shop}/orders:
                get:
                  operationId: listOrders
                  parameters:
                    - {name: shop, in: path, required: true, schema: {type: integer, minimum: 1}, example: 3}
                    - {name: page, in: query, required: true, schema: {type: integer}, example: 2}
                    - {name: tags, in: query, schema: {type: array, items: {type: string}}, example: [a, b]}
                    - {name: ids, in: query, style: form, explode: false, schema: {type: array, items: {type: integer}}, example: [1, 2]}
                    - {name: pipes, in: query, style: pipeDelimited, schema: {type: array, items: {type: integer}}}
                    - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {a: {type: string}}}}
                    - {name: X-Request-Id, in: header, required: true, schema: {type: string}, example: r-1}
                    - {name: Accept, in: header, schema: {type: string}}
                    - {name: session, in: cookie, schema: {type: string}}
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {type: array}}}}
            """))
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        let described = try #require(try parameters(result, "listOrders.json"))
        let expected = try JSONParser().parse(Array("""
            {"path": {"shop": {"schema": {"type": "integer", "minimum": 1}}},
             "query": {"page": {"required": true, "schema": {"type": "integer"}}, "tags": {"schema": {"type": "array", "items": {"type": "string"}}},
                       "ids": {"explode": false, "schema": {"type": "array", "items": {"type": "integer"}}},
                       "pipes": {"style": "pipeDelimited", "schema": {"type": "array", "items": {"type": "integer"}}}},
             "header": {"X-Request-Id": {"required": true, "schema": {"type": "string"}}}}
            """.utf8)).value
        #expect(described == expected, "\(CanonicalJSONWriter(style: .compact).string(described))")
    }

    @Test func swagger2CollectionFormatsAndTypesBecomeStylesAndSchemas() throws {
        let yaml = """
            swagger: '2.0'
            info: {title: t, version: '1'}
            paths:
              /pets:
                get:
                  operationId: findPets
                  produces: [application/json]
                  parameters:
                    - {name: limit, in: query, required: true, type: integer, format: int32, maximum: 100, x-example: 10}
                    - {name: csv, in: query, type: array, items: {type: string}, collectionFormat: csv}
                    - {name: multi, in: query, type: array, items: {type: string}, collectionFormat: multi}
                    - {name: pipes, in: query, type: array, items: {type: integer}, collectionFormat: pipes}
                  responses:
                    '200': {description: ok, schema: {type: array, items: {type: object}}}
            """
        let result = try edge.importYAML(yaml)
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        let query = try #require(try parameters(result, "findPets.json")?.objectValue?["query"]?.objectValue)
        #expect(query["limit"]?.objectValue?["schema"]?.objectValue?["type"] == .string("integer"))
        #expect(query["limit"]?.objectValue?["schema"]?.objectValue?["maximum"] == .number(JSONNumber(100)))
        #expect(query["limit"]?.objectValue?["required"] == .bool(true))
        #expect(query["csv"]?.objectValue?["explode"] == .bool(false))
        #expect(query["multi"]?.objectValue?["explode"] == nil && query["multi"]?.objectValue?["style"] == nil)
        #expect(query["pipes"]?.objectValue?["style"] == .string("pipeDelimited"))
    }

    /// A published document whose example breaks its own parameter schema: the value the document
    /// shows is sent, and the description keeps the parameter without that schema, with a warning.
    @Test func anExampleThatBreaksItsParameterSchemaLeavesTheSchemaOutWithAWarning() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /things:
                get:
                  operationId: listThings
                  parameters:
                    - {name: size, in: query, required: true, schema: {type: integer, maximum: 10}, example: 50}
                  responses:
                    '200': {description: ok}
            """))
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        let size = try #require(try parameters(result, "listThings.json")?.objectValue?["query"]?.objectValue?["size"]?.objectValue)
        #expect(size["schema"] == nil && size["required"] == .bool(true))
        #expect(result.diagnostics.contains { $0.message.hasPrefix("the query parameter 'size': the value sent (the document's example") }, "\(result.diagnostics.map(\.rendered))")
    }

    /// A schema no value meets (published documents have them): the import sends a made-up value,
    /// and the description keeps the parameter, required, without the schema.
    @Test func aSchemaNoValueMeetsIsLeftOutOfTheDescription() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /things:
                get:
                  operationId: listThings
                  parameters:
                    - {name: token, in: query, required: true, content: {application/json: {schema: {type: object}}}}
                    - {name: mode, in: query, required: true, schema: {not: {}}}
                  responses:
                    '200': {description: ok}
            """))
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        let query = try parameters(result, "listThings.json")?.objectValue?["query"]?.objectValue
        #expect(query?["token"] == nil, "a parameter given as content has no schema to describe")
        #expect(query?["mode"] == .object(JSONObject([.init(key: "required", value: true)])))
        #expect(result.diagnostics.contains { $0.message.hasPrefix("the query parameter 'mode': the value sent (the document's example, or one made up") })
    }
}
