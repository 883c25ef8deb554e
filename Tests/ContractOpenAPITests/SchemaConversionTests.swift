import ContractJSON
import ContractOpenAPI
import Foundation
import Testing

/// 3.0 schema keywords become 2020-12 ones; component references become shared files.
struct SchemaConversionTests {
    func importYAML(_ yaml: String) throws -> ImportResult {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try OpenAPIImporter.importDocument(path: url.path, shownAs: "api.yaml")
    }

    func file(_ result: ImportResult, _ path: String) throws -> JSONValue {
        let file = try #require(result.files.first { $0.path == path }, "no \(path) in \(result.files.map(\.path))")
        return try JSONParser().parse(file.bytes).value
    }

    static let document30 = """
        openapi: 3.0.3
        info: {title: t, version: '1'}
        paths:
          /nodes/{node-id}:
            get:
              operationId: getNode
              parameters:
                - {name: node-id, in: path, required: true, schema: {type: integer, minimum: 1}}
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Node'}
        components:
          schemas:
            Node:
              type: object
              required: [id]
              properties:
                id: {type: integer, exclusiveMinimum: true, minimum: 0, example: 3}
                label: {type: string, nullable: true}
                kind: {type: string, enum: [leaf, branch], nullable: true}
                parent: {allOf: [{$ref: '#/components/schemas/Node'}], nullable: true}
                children: {type: array, items: {$ref: '#/components/schemas/Node'}}
                example: {type: boolean}
        """

    @Test func keywordsOf30BecomeDraft2020() throws {
        let node = try file(try importYAML(Self.document30), "schemas/Node.json")
        let properties = try #require(node.objectValue?["properties"]?.objectValue)
        #expect(properties["id"] == ["type": "integer", "exclusiveMinimum": 0, "examples": [3]])
        #expect(properties["label"] == ["type": ["string", "null"]])
        #expect(properties["kind"] == ["type": ["string", "null"], "enum": ["leaf", "branch", .null]])
        #expect(properties["parent"] == ["anyOf": [["type": "null"], ["allOf": [["$ref": "Node.json"]]]]])
        // Recursive schemas stay recursive, through the shared file.
        #expect(properties["children"] == ["type": "array", "items": ["$ref": "Node.json"]])
        // A property named like a keyword is a property.
        #expect(properties["example"] == ["type": "boolean"])
    }

    @Test func pathPlaceholdersAreRenamedToValidNames() throws {
        let contract = try file(try importYAML(Self.document30), "getNode.json")
        #expect(contract.objectValue?["request"]?.objectValue?["path"] == "/nodes/{node_id}")
        let testCase = try #require(contract.objectValue?["cases"]?.arrayValue?.first?.objectValue)
        #expect(testCase["request"]?.objectValue?["pathParams"] == ["node_id": 1])
        #expect(testCase["response"]?.objectValue?["schema"] == ["$ref": "schemas/Node.json"])
    }
}
