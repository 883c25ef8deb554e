import ContractJSON
import ContractModel
import ContractOpenAPI
import Foundation
import Testing

/// Documents split over files: a schema in another file is shared like a component (one file
/// under `schemas/`, however often it is referred to), so chains of files stay linear in size and
/// depth, and recursion through files stays recursion. Swagger 2.0 split documents are converted
/// file by file.
struct SplitDocumentTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("split-\(UUID().uuidString)")

    func write(_ text: String, to name: String) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    /// Imports `api.yaml` (or `name`) of the folder; the importer lints what it makes, or throws.
    func importRoot(_ name: String = "api.yaml") throws -> ImportResult {
        try OpenAPIImporter.importDocument(path: folder.appendingPathComponent(name).path, shownAs: name)
    }

    func json(_ result: ImportResult, _ path: String) throws -> JSONValue {
        let file = try #require(result.files.first { $0.path == path }, "no \(path) in \(result.files.map(\.path))")
        return try JSONParser().parse(file.bytes).value
    }

    func schemaFiles(_ result: ImportResult) -> [String] {
        result.files.map(\.path).filter { $0.hasPrefix("schemas/") }.sorted()
    }

    /// A 3.0 document with one operation answering the schema `reference`.
    static func root(answering reference: String, components: String = "") -> String {
        """
        openapi: 3.0.3
        info: {title: t, version: '1'}
        paths:
          /things:
            get:
              responses:
                '200': {description: ok, content: {application/json: {schema: {$ref: '\(reference)'}}}}
        \(components)
        """
    }

    @Test func aChainReferringTwiceToTheNextStaysLinear() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 30
        try write(Self.root(answering: "f0.yaml"), to: "api.yaml")
        for index in 0..<count - 1 {
            try write(
                "type: object\nproperties:\n  left: {$ref: 'f\(index + 1).yaml'}\n  right: {$ref: 'f\(index + 1).yaml'}\n", to: "f\(index).yaml")
        }
        try write("type: object\nproperties: {leaf: {type: string}}\n", to: "f\(count - 1).yaml")
        let result = try importRoot()
        #expect(schemaFiles(result).count == count)
        // Copied in place, the last file was written 2^29 times; shared, each is written once
        // (about 150 bytes a file). The format's own schema, a hidden file, is left out.
        let total = result.tree.reduce(0) { $0 + $1.bytes.count }
        #expect(total < 20_000, "\(total) bytes")
        #expect(try json(result, "schemas/f0.json") == ["type": "object", "properties": ["left": ["$ref": "f1.json"], "right": ["$ref": "f1.json"]]])
    }

    /// A stack frame per file would overflow here; the shared schemas are converted one by one.
    @Test func aChainOfTwentyThousandFilesImports() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 20_000
        try write(Self.root(answering: "f0.yaml"), to: "api.yaml")
        for index in 0..<count - 1 {
            try write("type: object\nproperties: {next: {$ref: 'f\(index + 1).yaml'}}\n", to: "f\(index).yaml")
        }
        try write("type: object\nproperties: {end: {type: string}}\n", to: "f\(count - 1).yaml")
        let result = try importRoot()
        #expect(schemaFiles(result).count == count)
        #expect(try json(result, "schemas/f0.json") == ["type": "object", "properties": ["next": ["$ref": "f1.json"]]])
    }

    @Test func recursionThroughFilesStaysRecursive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Self.root(answering: "a.yaml"), to: "api.yaml")
        try write("type: object\nrequired: [name]\nproperties:\n  name: {type: string}\n  b: {$ref: 'b.yaml'}\n", to: "a.yaml")
        try write("type: object\nproperties:\n  a: {$ref: './a.yaml'}\n", to: "b.yaml")
        let result = try importRoot()
        #expect(schemaFiles(result) == ["schemas/a.json", "schemas/b.json"])
        let a = try json(result, "schemas/a.json")
        #expect(a.objectValue?["properties"]?.objectValue?["b"] == ["$ref": "b.json"])
        #expect(try json(result, "schemas/b.json") == ["type": "object", "properties": ["a": ["$ref": "a.json"]]])
        #expect(try json(result, "get-things.json").objectValue?["cases"]?.arrayValue?.first?.objectValue?["response"]?.objectValue?["schema"]
            == ["$ref": "schemas/a.json"])
        #expect(!result.diagnostics.contains { $0.message.contains("refer to itself") }, "\(result.diagnostics.map(\.rendered))")
        #expect(result.sharedSchemaSources == [
            "schemas/a.json": JSONPointer(tokens: ["x-contract-files", "a.yaml"]),
            "schemas/b.json": JSONPointer(tokens: ["x-contract-files", "b.yaml"]),
        ])
    }

    /// The other files of a 2.0 document are 2.0 too: converted alike, and their references back
    /// into the document lead to the converted components.
    @Test func swagger2FilesAreConvertedWithTheDocument() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("""
            swagger: '2.0'
            info: {title: t, version: '1'}
            produces: [application/json]
            paths:
              /pets/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, type: integer, x-example: 1}]
                  responses:
                    '200': {description: ok, schema: {$ref: '#/definitions/Pet'}}
              /tags:
                $ref: paths/tags.yaml
            definitions:
              Pet: {$ref: './definitions/pet.yaml'}
              Category:
                type: object
                properties: {name: {type: string}}
            """, to: "swagger.yaml")
        try write("""
            type: object
            required: [name]
            properties:
              name: {type: string}
              nickname: {type: string, x-nullable: true}
              category: {$ref: '../swagger.yaml#/definitions/Category'}
              photo: {type: file}
            """, to: "definitions/pet.yaml")
        try write("""
            post:
              parameters:
                - {name: tag, in: body, required: true, schema: {$ref: '../definitions/pet.yaml#/properties/category'}}
              responses:
                '201': {description: created, schema: {type: array, items: {type: string, x-nullable: true}}}
            """, to: "paths/tags.yaml")
        let result = try importRoot("swagger.yaml")
        #expect(result.contractCount == 2, "\(result.diagnostics.map(\.rendered))")
        #expect(try json(result, "schemas/Pet.json") == ["$ref": "definitions-pet.json"])
        let pet = try json(result, "schemas/definitions-pet.json").objectValue?["properties"]?.objectValue
        #expect(pet?["nickname"] == ["type": ["string", "null"]])
        #expect(pet?["category"] == ["$ref": "Category.json"])
        #expect(pet?["photo"] == ["type": "string", "format": "binary"])
        // The path item in another file has its body and its response moved as 3.0 has them.
        let post = try json(result, "post-tags.json").objectValue
        let testCase = post?["cases"]?.arrayValue?.first?.objectValue
        #expect(testCase?["response"]?.objectValue?["schema"] == ["type": "array", "items": ["type": ["string", "null"]]])
        // The request body's schema is the endpoint's, for every case.
        #expect(post?["request"]?.objectValue?["schema"] == ["$ref": "schemas/pet-properties-category.json"], "\(String(describing: post))")
        #expect(try json(result, "schemas/pet-properties-category.json") == ["$ref": "Category.json"])
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        #expect(!warnings.contains { $0.message.contains("points to nothing") }, "\(warnings.map(\.rendered))")
        #expect(result.sharedSchemaSources["schemas/definitions-pet.json"] == JSONPointer(tokens: ["x-contract-files", "definitions/pet.yaml"]))
        #expect(result.sharedSchemaSources["schemas/Category.json"] == JSONPointer(tokens: ["components", "schemas", "Category"]))
    }

    /// Parameters and responses in other files: a body is taken into the operation's request body,
    /// a response's schema moves under its media type, and warnings point into the file.
    @Test func swagger2ParametersAndResponsesInOtherFiles() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("""
            swagger: '2.0'
            info: {title: t, version: '1'}
            produces: [application/json]
            paths:
              /a:
                post:
                  parameters:
                    - $ref: 'parameters.yaml#/limit'
                    - $ref: 'parameters.yaml#/body'
                  responses:
                    '200': {$ref: 'responses.yaml#/ok'}
            """, to: "swagger.yaml")
        try write("""
            limit: {name: limit, in: query, type: integer, x-example: 3}
            body: {name: body, in: body, required: true, schema: {type: object, properties: {file: {type: file}}}}
            """, to: "parameters.yaml")
        try write("""
            ok:
              description: ok
              schema:
                type: object
                required: name
                properties: {name: {type: string, x-nullable: true}}
            """, to: "responses.yaml")
        let result = try importRoot("swagger.yaml")
        let contract = try json(result, "post-a.json").objectValue
        let testCase = contract?["cases"]?.arrayValue?.first?.objectValue
        let request = testCase?["request"]?.objectValue
        #expect(request?["query"] == ["limit": 3])
        #expect(contract?["request"]?.objectValue?["schema"] == ["type": "object", "properties": ["file": ["type": "string", "format": "binary"]]])
        #expect(testCase?["response"]?.objectValue?["schema"] == ["type": "object", "properties": ["name": ["type": ["string", "null"]]]])
        let mend = try #require(result.diagnostics.first { $0.message.contains("'required' must be an array") })
        #expect(mend.rendered.hasPrefix("responses.yaml:5:15: warning:"), "\(mend.rendered)")
    }

    @Test func filesOfTheSameNameAndComponentsKeepTheirOwnSchemaFiles() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Self.root(answering: "#/components/schemas/Pets", components: """
            components:
              schemas:
                Pets:
                  type: object
                  properties:
                    a: {$ref: 'a/pet.yaml'}
                    b: {$ref: 'b/pet.yaml'}
                    local: {$ref: 'Pet.yaml'}
                    component: {$ref: '#/components/schemas/Pet'}
                    error: {$ref: 'common.yaml#/Error'}
                Pet: {type: integer}
            """), to: "api.yaml")
        try write("type: string\n", to: "a/pet.yaml")
        try write("type: boolean\n", to: "b/pet.yaml")
        try write("type: number\n", to: "Pet.yaml")
        try write("Error: {type: object, properties: {code: {type: integer}}}\n", to: "common.yaml")
        let result = try importRoot()
        let files = schemaFiles(result)
        #expect(files == [
            "schemas/Pet-2.json", "schemas/Pet.json", "schemas/Pets.json", "schemas/a-pet.json", "schemas/b-pet.json", "schemas/common-Error.json",
        ])
        #expect(Set(files.map { $0.lowercased() }).count == files.count)
        #expect(try json(result, "schemas/Pet.json") == ["type": "integer"])
        #expect(try json(result, "schemas/Pet-2.json") == ["type": "number"])
        #expect(try json(result, "schemas/Pets.json").objectValue?["properties"] == [
            "a": ["$ref": "a-pet.json"], "b": ["$ref": "b-pet.json"], "local": ["$ref": "Pet-2.json"], "component": ["$ref": "Pet.json"],
            "error": ["$ref": "common-Error.json"],
        ])
        #expect(result.sharedSchemaSources["schemas/common-Error.json"] == JSONPointer(tokens: ["x-contract-files", "common.yaml", "Error"]))
    }

    /// A reference to a schema elsewhere in the document than components is shared too, named
    /// after its place.
    @Test func schemasOutsideComponentsAreSharedByTheirPlace() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("""
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /pets:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              next: {$ref: '#/paths/~1pets/get/responses/200/content/application~1json/schema'}
            """, to: "api.yaml")
        let result = try importRoot()
        let name = "schemas/paths-pets-get-responses-200-content-application-json-schema.json"
        #expect(schemaFiles(result) == [name])
        let own = JSONValue.string(String(name.dropFirst("schemas/".count)))
        #expect(try json(result, name) == ["type": "object", "properties": ["next": ["$ref": own]]])
        #expect(!result.diagnostics.contains { $0.message.contains("refer to itself") })
    }
}
