import Foundation
import Testing

/// `contract import openapi` through the real binary: bad documents stop with exit 2 and write
/// nothing; a re-import rewrites only what an import wrote.
struct ImportCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")

    func write(_ text: String, to name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Imports `document` (as `name`) into `out`, expecting success, and checks that what was
    /// written lints clean and gives fixtures; returns the import's output.
    func importChecked(_ document: String, named name: String = "api.yaml", sourceLocation: SourceLocation = #_sourceLocation) async throws -> ContractBinary.Result {
        _ = try write(document, to: name)
        let result = try await ContractBinary.run(["import", "openapi", name, "--out", "out"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        let lint = try await ContractBinary.run(["lint", "out"], in: folder)
        #expect(lint.exitCode == 0, "\(lint.stdout)", sourceLocation: sourceLocation)
        let fixtures = try await ContractBinary.run(["fixtures", "--out", "fx", "out"], in: folder)
        #expect(fixtures.exitCode == 0, "\(fixtures.stderr)", sourceLocation: sourceLocation)
        return result
    }

    func importDocument(_ path: String, out: String) async throws -> ContractBinary.Result {
        try await ContractBinary.run(["import", "openapi", path, "--out", out], in: folder)
    }

    static let valid = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /health:
            get:
              operationId: health
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {type: object, required: [status], properties: {status: {const: ok}}}
        """

    @Test(arguments: [
        ("openapi: 3.0.0\ninfo: {title: t\n", "broken.yaml:3:1: error: invalid YAML:"),
        ("swagger: '1.2'\ninfo: {title: t, version: '1'}\npaths: {}\n", "broken.yaml:1:10: error: Swagger 1.2 documents are not supported"),
        ("openapi: 4.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n", "broken.yaml:1:10: error: OpenAPI 4.0.0 is not supported: 3.0.x, 3.1.x and 3.2.x are"),
    ])
    func malformedDocumentsStopWithExit2AndWriteNothing(_ document: String, _ expected: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try write(document, to: "broken.yaml")
        let result = try await ContractBinary.run(["import", "openapi", "broken.yaml", "--out", "out"], in: folder)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "\(path)")
    }

    /// What a published document gets wrong becomes a warning at its line; the rest imports.
    @Test func imperfectDocumentsImportWithWarnings() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try write("""
            openapi: 3.1.0
            paths:
              /a:
                get:
                  security: [{undefinedScheme: []}]
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [id, id]
                            nullable: true
                            x-expand: {$ref: '#/components/schemas/Nowhere'}
                            properties:
                              id: {type: integer, maximum: 9.223372036854776e+18, enum: ["1", "2"]}
                              kind: {type: string, enum: [true, false]}
                              missing: {$ref: '#/components/schemas/Missing'}
            """, to: "api.yaml")
        let result = try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "out"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let output = result.stdout + result.stderr
        for expected in [
            "api.yaml:19:35: warning: '#/components/schemas/Missing' points to nothing; what it describes is left out",
            "api.yaml:13:27: warning: 'required' lists a name twice",
            "api.yaml:12:17: warning: OpenAPI 3.0's 'nullable' or boolean exclusive bounds in a 3.1 document: read with their 3.0 meaning",
            "api.yaml:17:77: warning: 'enum' holds values of another type than 'integer'; each is read as the integer it spells",
            "api.yaml:18:46: warning: 'enum' holds values of another type than 'string'; each is read as the string it spells",
            "api.yaml:5:36: warning: the security scheme 'undefinedScheme' is not defined in components/securitySchemes",
        ] {
            #expect(output.contains(expected), "\(expected)\n\(output)")
        }
        let contract = try String(contentsOf: folder.appendingPathComponent("out/get-a.json"), encoding: .utf8)
        #expect(contract.contains("\"enum\": [\n                1,\n                2\n"), "\(contract)")
        #expect(contract.contains("\"true\",\n                \"false\""), "\(contract)")
        #expect(!contract.contains("x-expand") && !contract.contains("Nowhere"))
        let lint = try await ContractBinary.run(["lint", "out"], in: folder)
        #expect(lint.exitCode == 0, "\(lint.stdout)")
    }

    /// `additionalProperties: false` in one `allOf` part (or beside `allOf`) closes the object the
    /// parts make together, as the author meant; fixtures then get a body.
    @Test func aClosedAllOfPartClosesTheWhole() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await importChecked("""
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /list:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            allOf:
                              - {type: object, required: [data], properties: {data: {type: array, items: {type: string}}}, additionalProperties: false}
                              - {type: object, required: [page], properties: {page: {type: integer}}}
            """)
        #expect(result.stderr.contains("api.yaml:13:134: warning: 'additionalProperties: false' inside one 'allOf' part rejects the properties of the others"), "\(result.stderr)")
        let contract = try String(contentsOf: folder.appendingPathComponent("out/get-list.json"), encoding: .utf8)
        #expect(contract.contains(#""unevaluatedProperties": false"#), "\(contract)")
    }

    /// `/files/{id}#get_shared_link` describes another operation on one path: the request goes to
    /// the path, the id keeps the fragment. Case names are words a person would write.
    @Test func pathFragmentsAndCaseNames() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try write("""
            openapi: 3.1.0
            info: {title: t, version: '1'}
            components:
              securitySchemes: {key: {type: apiKey, in: header, name: X-Key}}
            security: [{key: []}]
            paths:
              /files/{file_id}#get_shared_link:
                post:
                  parameters: [{name: file_id, in: path, required: true, schema: {type: string}}]
                  responses:
                    '201': {description: ok, content: {application/json: {schema: {type: object}}}}
                    '401': {description: no}
              /files/{file_id}:
                post:
                  parameters: [{name: file_id, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
            """, to: "api.yaml")
        let result = try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "out"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(
            "warning: the path's fragment '#get_shared_link' is not sent: requests go to '/files/{file_id}'; contract ids keep it"))
        let shared = try String(contentsOf: folder.appendingPathComponent("out/post-files-file_id-get_shared_link.json"), encoding: .utf8)
        #expect(shared.contains(#""path": "/files/{file_id}""#))
        #expect(shared.contains(#""name": "created""#) && shared.contains(#""name": "no-credentials""#), "\(shared)")
        let plain = try String(contentsOf: folder.appendingPathComponent("out/post-files-file_id.json"), encoding: .utf8)
        #expect(plain.contains(#""name": "ok""#))
        #expect(try await ContractBinary.run(["lint", "out"], in: folder).exitCode == 0)
    }

    /// Swagger 2.0 imports as the OpenAPI 3.0 it describes: bodies, forms, media types, shared
    /// definitions and parameters, security; warnings point into the 2.0 file.
    @Test func swagger2DocumentsImport() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await importChecked("""
            swagger: '2.0'
            info: {title: t, version: '1'}
            host: api.example.com
            basePath: /v1
            schemes: [https]
            consumes: [application/json]
            produces: [application/json]
            securityDefinitions: {basicAuth: {type: basic}}
            security: [{basicAuth: []}]
            parameters:
              PetBody: {name: pet, in: body, required: true, schema: {$ref: '#/definitions/Pet'}}
              Limit: {name: limit, in: query, type: integer, x-example: 5}
            definitions:
              Pet:
                type: object
                required: [name]
                properties:
                  name: {type: string, example: Rex}
                  tag: {type: string, x-nullable: true}
            paths:
              /pets:
                get:
                  operationId: listPets
                  parameters:
                    - $ref: '#/parameters/Limit'
                    - {name: tags, in: query, type: array, items: {type: string}, collectionFormat: multi}
                  responses:
                    200: {description: ok, schema: {type: array, items: {$ref: '#/definitions/Pet'}}}
                    401: {description: no}
                post:
                  operationId: addPet
                  parameters: [{$ref: '#/parameters/PetBody'}]
                  responses:
                    201: {description: created, schema: {$ref: '#/definitions/Pet'}, examples: {application/json: {name: Rex}}}
              /pets/{id}/photo:
                post:
                  operationId: uploadPhoto
                  consumes: [multipart/form-data]
                  parameters:
                    - {name: id, in: path, required: true, type: integer}
                    - {name: file, in: formData, required: true, type: file}
                  responses:
                    204: {description: stored}
                    default: {description: error, schema: {$ref: '#/definitions/Nowhere'}}
            """)
        #expect(result.stderr.contains("api.yaml:1:10: note: Swagger 2.0 is read as the OpenAPI 3.0 document it describes"), "\(result.stderr)")
        #expect(result.stderr.contains("api.yaml:44:54: warning: '#/components/schemas/Nowhere' points to nothing"), "\(result.stderr)")
        #expect(result.stdout.contains("Servers in the document (pass one, or your own, as --base-url):\n  https://api.example.com/v1"))
        let list = try String(contentsOf: folder.appendingPathComponent("out/listPets.json"), encoding: .utf8)
        #expect(list.contains(#""Authorization": "Basic ${env:"#) && list.contains(#""limit": 5"#), "\(list)")
        let add = try String(contentsOf: folder.appendingPathComponent("out/addPet.json"), encoding: .utf8)
        #expect(add.contains(#""status": 201"#) && add.contains(#""name": "Rex""#), "\(add)")
        let pet = try String(contentsOf: folder.appendingPathComponent("out/schemas/Pet.json"), encoding: .utf8)
        #expect(pet.contains(#""string","#) && pet.contains(#""null""#), "x-nullable is nullable: \(pet)")
    }

    /// Found in review: shared parameters referenced at path and operation level both apply, a
    /// shared form field joins the form, examples keep their data (`type: file` in an example is
    /// no schema), and a property called `default` is a property.
    @Test func swagger2SharedParametersAndExampleData() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await importChecked("""
            swagger: '2.0'
            info: {title: t, version: '1'}
            parameters:
              Id: {name: id, in: path, required: true, type: integer, x-example: 7}
              Limit: {name: limit, in: query, type: integer, x-example: 5}
              Note: {name: note, in: formData, required: true, type: string, x-example: hi}
            definitions:
              Pet:
                type: object
                properties: {default: {type: string}, kind: {type: string}}
                example: {default: d, kind: file, type: file}
            paths:
              /pets/{id}:
                parameters: [{$ref: '#/parameters/Id'}]
                get:
                  parameters: [{$ref: '#/parameters/Limit'}]
                  responses: {200: {description: ok, schema: {$ref: '#/definitions/Pet'}}}
                post:
                  consumes: [application/x-www-form-urlencoded]
                  parameters: [{$ref: '#/parameters/Note'}]
                  responses: {204: {description: ok}}
            """)
        #expect(!result.stderr.contains("skipped"), "\(result.stderr)")
        let get = try String(contentsOf: folder.appendingPathComponent("out/get-pets-id.json"), encoding: .utf8)
        #expect(get.contains(#""id": 7"#) && get.contains(#""limit": 5"#), "\(get)")
        let post = try String(contentsOf: folder.appendingPathComponent("out/post-pets-id.json"), encoding: .utf8)
        #expect(post.contains("note=hi"), "\(post)")
        let pet = try String(contentsOf: folder.appendingPathComponent("out/schemas/Pet.json"), encoding: .utf8)
        #expect(pet.contains(#""type": "file""#), "example data kept as written: \(pet)")
    }

    /// A request body of any type (`*/*`) with a schema is sent as JSON, which such a server accepts.
    @Test func anyTypeBodiesAreSentAsJSON() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await importChecked("""
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /things:
                put:
                  requestBody:
                    required: true
                    content: {'*/*': {schema: {type: object, required: [name], properties: {name: {type: string, example: box}}}}}
                  responses: {'200': {description: ok}}
            """)
        #expect(!result.stderr.contains("cannot be expressed"), "\(result.stderr)")
        let contract = try String(contentsOf: folder.appendingPathComponent("out/put-things.json"), encoding: .utf8)
        // A name a PUT sends gets a unique part: the next run's create must not collide.
        #expect(contract.contains(#""body": {"#) && contract.contains(#""name": "box-${unique:thing_name}""#), "\(contract)")
    }

    /// A document split over files: path items, operations and schemas in other files, relative
    /// to the file that refers to them, which refer back to each other. Nothing above the folder
    /// of the named document is read; a missing file is a warning at the referring line.
    @Test func splitDocumentsAreReadWithinTheirFolder() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try write("secret: do not read", to: "outside.yaml")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("api/paths"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("api/paths/link.yaml").path, withDestinationPath: "../../outside.yaml")
        _ = try write("""
            get:
              parameters: [{name: id, in: path, required: true, schema: {type: integer}, example: 1}]
              responses:
                '200': {description: ok, content: {application/json: {schema: {$ref: '../schemas/pet.yaml'}}}}
            """, to: "api/paths/pet.yaml")
        _ = try write("""
            list:
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '../schemas/owner.yaml#/Owner'}}}}}
            """, to: "api/paths/owners.yaml")
        _ = try write("""
            type: object
            required: [name, owner]
            properties:
              name: {type: string}
              owner: {$ref: 'owner.yaml#/Owner'}
            """, to: "api/schemas/pet.yaml")
        _ = try write("""
            Owner:
              type: object
              required: [name]
              properties:
                name: {type: string}
                pets: {type: array, items: {$ref: 'pet.yaml'}}
            """, to: "api/schemas/owner.yaml")
        let result = try await importChecked("""
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /pets/{id}:
                $ref: paths/pet.yaml
              /owners:
                get:
                  $ref: 'paths/owners.yaml#/list'
              /lost:
                $ref: paths/missing.yaml
              /escape:
                $ref: ../outside.yaml
              /linked:
                $ref: paths/link.yaml
            """, named: "api/api.yaml")
        #expect(result.stdout.contains("2 contracts with 2 cases"), "\(result.stdout)")
        #expect(result.stderr.contains("api/api.yaml:10:11: warning: 'paths/missing.yaml' refers to a file that does not exist"), "\(result.stderr)")
        #expect(result.stderr.contains("api/api.yaml:12:11: warning: '../outside.yaml' is outside the folder of the document, which the import never reads"))
        #expect(result.stderr.contains("api/api.yaml:14:11: warning: 'paths/link.yaml' is outside the folder of the document"), "a link leading out: \(result.stderr)")
        // The schema from another file is shared, as a component is.
        let contract = try String(contentsOf: folder.appendingPathComponent("out/get-pets-id.json"), encoding: .utf8)
        #expect(contract.contains(#""$ref": "schemas/schemas-pet.json""#), "\(contract)")
        let pet = try String(contentsOf: folder.appendingPathComponent("out/schemas/schemas-pet.json"), encoding: .utf8)
        #expect(pet.contains(#""owner""#) && pet.contains(#""name""#), "\(pet)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/outside.json").path))
    }

    /// Values the document gives no example for are listed; `--value` replaces them, and the
    /// folder keeps the values given for the next import.
    @Test func madeUpValuesAreListedAndCanBeGiven() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /pets/{petId}:
                get:
                  parameters: [{name: petId, in: path, required: true, schema: {type: integer}}, {name: q, in: query, schema: {type: string}, example: x}]
                  responses: {'200': {description: ok}}
                delete:
                  parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]
                  responses: {'204': {description: gone}}
            """
        let first = try await importChecked(document)
        #expect(first.stdout.contains("  petId (path) = 1: get-pets-petId/ok, delete-pets-petId/no-content"), "\(first.stdout)")
        #expect(!first.stdout.contains("q (query)"), "a documented example is not made up")
        let given = try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "out", "--value", "petId=42"], in: folder)
        #expect(given.exitCode == 0 && !given.stdout.contains("made up"), "\(given.stdout)")
        let again = try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "out"], in: folder)
        #expect(again.stdout.contains("0 files written"), "\(again.stdout)")
        let contract = try String(contentsOf: folder.appendingPathComponent("out/get-pets-petId.json"), encoding: .utf8)
        #expect(contract.contains(#""petId": 42"#), "\(contract)")
    }

    /// `--value NAME='${env:VAR}'` writes the placeholder, which verify fills from the environment,
    /// and lists the variable; a capture cannot be given.
    @Test func aGivenValueMayReadTheEnvironment() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try write("""
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /me:
                get:
                  parameters: [{name: X-Token, in: header, required: true, schema: {type: string}, example: abc}]
                  responses: {'200': {description: ok}}
            """, to: "api.yaml")
        let refused = try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "out", "--value", "X-Token=${capture:t}"], in: folder)
        #expect(refused.exitCode == 2)
        #expect(refused.stderr.hasPrefix("error: --value 'X-Token': a value given here may use ${env:NAME}, not ${capture:…}"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
        let result = try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "out", "--value", "X-Token=${env:API_TOKEN}"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  API_TOKEN: the value given for 'X-Token' (--value X-Token=…)"), "\(result.stdout)")
        let contract = try String(contentsOf: folder.appendingPathComponent("out/get-me.json"), encoding: .utf8)
        #expect(contract.contains(#""X-Token": "${env:API_TOKEN}""#), "\(contract)")
    }

    /// OpenAPI 3.2 imports as 3.1, with a note on what 3.2 adds.
    @Test func openAPI32ImportsAs31() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try write(Self.valid.replacingOccurrences(of: "openapi: 3.1.0", with: "openapi: 3.2.0"), to: "api.yaml")
        let result = try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "out"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("api.yaml:1:10: note: OpenAPI 3.2 is read as 3.1"), "\(result.stderr)")
        #expect(result.stdout.contains("1 contract with 1 case in out: 2 files written"), "\(result.stdout)")
    }

    @Test func reimportRewritesOnlyWhatAnImportWrote() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try write(Self.valid, to: "api.yaml")
        let out = folder.appendingPathComponent("out")
        let first = try await importDocument(document, out: out.path)
        #expect(first.exitCode == 0, "\(first.stderr)")
        let contract = out.appendingPathComponent("health.json")
        let bytes = try Data(contentsOf: contract)
        let manifest = try Data(contentsOf: out.appendingPathComponent(".contract-import.json"))

        // The same document again: the same bytes, nothing rewritten.
        let second = try await importDocument(document, out: out.path)
        #expect(second.stdout.contains("0 files written, 2 unchanged"), "\(second.stdout)")
        #expect(try Data(contentsOf: contract) == bytes)
        #expect(try Data(contentsOf: out.appendingPathComponent(".contract-import.json")) == manifest)

        // A person's own contract beside the generated ones is never touched, even when the
        // document later produces a file of that name: the import stops instead.
        let own = out.appendingPathComponent("mine.json")
        try "{\"person\": true}".write(to: own, atomically: true, encoding: .utf8)
        _ = try write(Self.valid.replacingOccurrences(of: "operationId: health", with: "operationId: mine"), to: "api.yaml")
        let clash = try await importDocument(document, out: out.path)
        #expect(clash.exitCode == 2)
        #expect(clash.stderr.contains("mine.json: error: this file was not written by an import"), "\(clash.stderr)")
        #expect(try String(contentsOf: own, encoding: .utf8) == "{\"person\": true}")
        #expect(try Data(contentsOf: contract) == bytes)

        // An edited generated file is kept too.
        try FileManager.default.removeItem(at: own)
        _ = try write(Self.valid, to: "api.yaml")
        try "{}".write(to: contract, atomically: true, encoding: .utf8)
        let edited = try await importDocument(document, out: out.path)
        #expect(edited.exitCode == 2)
        #expect(edited.stderr.contains("health.json: error: this file was edited since the last import"), "\(edited.stderr)")
        #expect(try String(contentsOf: contract, encoding: .utf8) == "{}")
    }

    @Test func aChangedDocumentRemovesTheContractsItNoLongerHas() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try write(Self.valid, to: "api.yaml")
        let out = folder.appendingPathComponent("out")
        #expect(try await importDocument(document, out: out.path).exitCode == 0)
        _ = try write(Self.valid.replacingOccurrences(of: "operationId: health", with: "operationId: status"), to: "api.yaml")
        let result = try await importDocument(document, out: out.path)
        #expect(result.stdout.contains("1 file written, 1 unchanged, 1 removed"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("health.json").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("status.json").path))
        #expect(try await ContractBinary.run(["lint", out.path], in: folder).exitCode == 0)
    }
}
