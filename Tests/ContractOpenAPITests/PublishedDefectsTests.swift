import ContractFixtures
import ContractJSON
import ContractModel
import ContractOpenAPI
import Foundation
import TestSupport
import Testing

/// What published documents get wrong in ways only a whole value shows (Cloudflare's envelopes,
/// Lob's and PagerDuty's overlapping `oneOf`s), and what an import needs to verify a server
/// without hand edits (a header it must be given, items a case must create first).
struct PublishedDefectsTests {
    let edge = EdgeCaseTests()

    func fixtureProblems(_ result: ImportResult) -> [String] {
        FixturePlanner(ContractLoader.load(files: result.tree, directory: ".")).plan().problems.map(\.message)
    }

    func at(_ value: JSONValue, _ pointer: String) -> JSONValue? {
        (try? JSONPointer(parsing: pointer)).flatMap { value[pointer: $0] }
    }

    func warnings(_ result: ImportResult) -> [String] {
        result.diagnostics.filter { $0.severity == .warning }.map(\.message)
    }

    static let envelope = """
        {ApiResponse: {type: object, required: [success, result], properties: {success: {type: boolean}, result: {type: [array, 'null'], items: {}}}},
         Pool: {type: object, required: [id], properties: {id: {type: integer}}}}
        """

    @Test func anEnvelopeTypeThatAMoreSpecificPartContradictsGivesWay() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /pool:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {allOf: [{$ref: '#/components/schemas/ApiResponse'}, {properties: {result: {$ref: '#/components/schemas/Pool'}}}]}}}}",
            components: Self.envelope))
        #expect(warnings(result).contains { $0.contains("'result' is an array or null here") && $0.contains("which no value is") }, "\(warnings(result))")
        // The envelope still checks the rest.
        let envelope = edge.text(result, "schemas/ApiResponse.json")
        #expect(!envelope.contains(#""array""#) && envelope.contains(#""success""#))
        #expect(edge.lintErrors(result).isEmpty)
        #expect(fixtureProblems(result).isEmpty, "\(fixtureProblems(result))")
    }

    @Test func aPartWhoseOwnTypeContradictsTheEnvelopeIsLeftOut() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /setting:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {allOf: [{$ref: '#/components/schemas/ApiResponse'}, {$ref: '#/components/schemas/Value'}]}}}}",
            components: "{ApiResponse: {type: object, properties: {success: {type: boolean}}}, Value: {type: string, enum: [on, off]}}"))
        #expect(warnings(result).contains { $0.contains("this 'allOf' part is a string but the parts before it make an object") }, "\(warnings(result))")
        #expect(!edge.text(result, "get-setting.json").contains("Value.json"))
        #expect(fixtureProblems(result).isEmpty, "\(fixtureProblems(result))")
    }

    @Test func typesThatAgreeAreLeftAlone() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /pools:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {allOf: [{$ref: '#/components/schemas/ApiResponse'}, {properties: {result: {type: array, items: {$ref: '#/components/schemas/Pool'}}}}]}}}}",
            components: Self.envelope))
        #expect(!warnings(result).contains { $0.contains("which no value is") })
        #expect(edge.text(result, "schemas/ApiResponse.json").contains(#""array""#))
        #expect(fixtureProblems(result).isEmpty, "\(fixtureProblems(result))")
    }

    /// Microsoft Graph's entities: `entity` and each part extending it say
    /// `additionalProperties: {type: object}`, which holds the other parts' members to it.
    static let graphEntities = """
        {entity: {type: object, properties: {id: {type: string}}, additionalProperties: {type: object}},
         directoryObject: {allOf: [{$ref: '#/components/schemas/entity'}, {type: object, properties: {deletedDateTime: {type: string, nullable: true}}, additionalProperties: {type: object}}]},
         user: {allOf: [{$ref: '#/components/schemas/directoryObject'}, {type: object, properties: {displayName: {type: string}}, additionalProperties: {type: object}}]}}
        """

    @Test func aMemberSchemaOfAnAllOfHoldsOnlyTheMembersNoPartDescribes() throws {
        let response = { (example: String) in "{description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/user'}, example: \(example)}}}" }
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: """
                  /me:
                    get:
                      responses:
                        '200': \(response("{id: '1', displayName: Ada, deletedDateTime: null, photo: {}}"))
                  /users/{id}:
                    get:
                      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                      responses:
                        '200': \(response("{id: '1', displayName: Ada, nickname: Ada}"))
                """,
            components: Self.graphEntities))
        #expect(warnings(result).contains { $0.contains("'additionalProperties' of a schema that 'allOf' extends (in 'directoryObject')") }, "\(warnings(result))")
        #expect(warnings(result).contains { $0.contains("'additionalProperties' inside one 'allOf' part holds the properties of the others to its schema") })
        // The object the parts make together takes other members of that schema, and only those.
        let user = try JSONParser().parse(Array(edge.text(result, "schemas/user.json").utf8)).value
        #expect(at(user, "/unevaluatedProperties") == ["type": "object"], "\(user)")
        #expect(at(user, "/allOf/1/additionalProperties") == nil)
        #expect(!edge.text(result, "schemas/entity.json").contains("additionalProperties"))
        // A schema others extend stays open: its own `unevaluatedProperties` would see only its own members.
        #expect(!edge.text(result, "schemas/directoryObject.json").contains("unevaluatedProperties"))
        #expect(edge.text(result, "get-me.json").contains(#""photo""#))
        #expect(!edge.text(result, "get-users-id.json").contains(#""nickname""#))
        #expect(warnings(result).contains { $0.contains("does not match") }, "\(warnings(result))")
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        #expect(fixtureProblems(result).isEmpty, "\(fixtureProblems(result))")
    }

    @Test func oneOfBranchesThatOneValueMatchesAreReadAsAnyOf() throws {
        // Lob's identity validation: two shapes whose differing properties are optional.
        let shape = { (extra: String) in "{type: object, properties: {id: {type: string, pattern: '^id_[a-z0-9]+$'}, \(extra): {type: string}, score: {type: number}}}" }
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /validation:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {oneOf: [\(shape("recipient")), \(shape("company"))]}}}}"))
        let contract = edge.text(result, "get-validation.json")
        #expect(contract.contains(#""anyOf""#) && !contract.contains(#""oneOf""#), "\(contract)")
        #expect(warnings(result).contains { $0.contains("branches 0 and 1 of this 'oneOf' all accept {") && $0.contains("read as 'anyOf'") }, "\(warnings(result))")
        #expect(fixtureProblems(result).isEmpty, "\(fixtureProblems(result))")
    }

    @Test func oneOfBranchesThatExcludeEachOtherStayOneOf() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /pet:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}, {type: string}]}}}}",
            components: "{Cat: {type: object, required: [kind], properties: {kind: {const: cat}}}, Dog: {type: object, required: [kind], properties: {kind: {const: dog}}}}"))
        #expect(edge.text(result, "get-pet.json").contains(#""oneOf""#))
        #expect(!warnings(result).contains { $0.contains("read as 'anyOf'") })
        #expect(fixtureProblems(result).isEmpty, "\(fixtureProblems(result))")
    }

    @Test func aSharedSchemasOverlappingOneOfIsMendedInItsFile() throws {
        // PagerDuty's agent: a reference type that a looser branch also accepts.
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /log:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Log'}}}}",
            components: "{Log: {type: object, properties: {agent: {oneOf: [{$ref: '#/components/schemas/UserReference'}, {type: object, required: [id, type], properties: {id: {type: string}, type: {type: string}}}]}}}, UserReference: {type: object, required: [id, type], properties: {id: {type: string}, type: {enum: [user_reference]}}}}"))
        #expect(edge.text(result, "schemas/Log.json").contains(#""anyOf""#))
        let warning = try #require(result.diagnostics.first { $0.message.contains("read as 'anyOf'") })
        #expect(warning.pointer?.description == "/components/schemas/Log/properties/agent/oneOf")
        #expect(fixtureProblems(result).isEmpty, "\(fixtureProblems(result))")
    }

    @Test func referencesIntoAMendedOneOfFollowIt() throws {
        // PagerDuty reuses one branch elsewhere: `AbstractAction.json#/…/oneOf/1`.
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /a:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {agent: {$ref: '#/components/schemas/Agent'}, other: {$ref: '#/components/schemas/Agent/oneOf/1'}}}}}}",
            components: "{Agent: {oneOf: [{type: object, properties: {id: {type: string}}}, {type: object, properties: {name: {type: string}}}]}}"))
        #expect(edge.text(result, "get-a.json").contains(#""$ref": "schemas/Agent.json#/anyOf/1""#), "\(edge.text(result, "get-a.json"))")
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        #expect(fixtureProblems(result).isEmpty, "\(fixtureProblems(result))")
    }

    @Test func aRequiredHeaderWithoutAValueIsReadFromTheEnvironment() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /items:
                post:
                  parameters: [{name: x-token, in: header, required: true, schema: {type: string}}]
                  responses:
                    '201': {description: created}
            """))
        #expect(edge.text(result, "post-items.json").contains(#""x-token": "${env:X_TOKEN}""#), "\(edge.text(result, "post-items.json"))")
        #expect(result.variables.contains { $0.name == "X_TOKEN" })
        #expect(!result.madeUpValues.contains { $0.name == "x-token" })
        #expect(edge.lintErrors(result).isEmpty)
    }

    static let items = """
          /items:
            post:
              operationId: createItem
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewItem'}}}}
              responses:
                '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
          /items/{item_id}:
            parameters: [{name: item_id, in: path, required: true, schema: {type: integer}}]
            get:
              operationId: getItem
              responses:
                '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
            delete:
              operationId: deleteItem
              responses:
                '204': {description: gone}
          /items/{item_id}/notes:
            parameters: [{name: item_id, in: path, required: true, schema: {type: integer}}]
            post:
              operationId: addNote
              requestBody: {required: true, content: {application/json: {schema: {type: object, required: [text], properties: {text: {type: string}}}}}}
              responses:
                '201': {description: created, content: {application/json: {schema: {type: object, required: [note_id], properties: {note_id: {type: string}, text: {type: string}}}}}}
          /items/{item_id}/notes/{note_id}:
            parameters:
              - {name: item_id, in: path, required: true, schema: {type: integer}}
              - {name: note_id, in: path, required: true, schema: {type: string}}
            get:
              operationId: getNote
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
        """

    @Test func casesOnAnItemCreateItFirstAndCaptureItsID() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: Self.items,
            components: "{NewItem: {type: object, required: [name], properties: {name: {type: string}}}, Item: {type: object, required: [id, name], properties: {id: {type: integer}, name: {type: string}}}}"))
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        let get = try JSONParser().parse(Array(edge.text(result, "getItem.json").utf8)).value
        let step = try #require(at(get, "/cases/0/setup/0"))
        #expect(at(step, "/request/method") == .string("POST"))
        #expect(at(step, "/request/path") == .string("/items"))
        #expect(at(step, "/request/body/name") != nil)
        #expect(at(step, "/status") == nil, "a step prepares: any 2XX will do")
        #expect(at(step, "/capture/item_id") == .string("/id"))
        #expect(at(get, "/cases/0/request/pathParams/item_id") == .string("${capture:item_id}"))
        // Every case makes its own item: a delete never takes another case's.
        #expect(edge.text(result, "deleteItem.json").contains("${capture:item_id}"))
        // A note belongs to an item: the item first, then the note on it.
        let note = try JSONParser().parse(Array(edge.text(result, "getNote.json").utf8)).value
        let steps = try #require(at(note, "/cases/0/setup")?.arrayValue)
        #expect(steps.map { $0.objectValue?["name"]?.stringValue } == ["create-item", "create-note"])
        #expect(at(steps[1], "/request/pathParams/item_id") == .string("${capture:item_id}"))
        #expect(at(steps[1], "/capture/note_id") == .string("/note_id"))
        // What the steps create is no longer made up.
        #expect(!result.madeUpValues.contains { $0.name == "item_id" && $0.usedBy.contains("getItem/ok") })
    }
}

/// One small document per kind of trouble real documents bring (Documents/<kind>/), its whole
/// import pinned: every file written, every warning with its line and column, and that the
/// output lints clean and gives a fixture per case.
struct FailureClassTests {
    static let documents = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Documents")

    @Test(arguments: ["lenient-values", "extension-references", "path-fragments", "split-document", "swagger-2", "published-defects", "member-schemas"])
    func conversionIsPinned(_ kind: String) throws {
        let folder = Self.documents.appendingPathComponent(kind)
        let root = ["openapi.yaml", "swagger.yaml"].map { folder.appendingPathComponent($0) }.first { FileManager.default.fileExists(atPath: $0.path) }
        let document = try #require(root)
        let result = try OpenAPIImporter.importDocument(path: document.path, shownAs: "\(kind)/\(document.lastPathComponent)")
        var text = ""
        for file in result.files where !file.path.hasPrefix(".") { text += "=== \(file.path)\n" + String(decoding: file.bytes, as: UTF8.self) }
        text += "=== diagnostics\n" + result.diagnostics.map(\.rendered).joined(separator: "\n") + "\n"
        try GoldenFiles().check(text, against: "classes/\(kind).txt")
        let set = ContractLoader.load(files: result.tree, directory: ".")
        #expect(LintReport(set).diagnostics.filter { $0.severity == .error }.isEmpty)
        let plan = FixturePlanner(set).plan()
        #expect(plan.problems.isEmpty, "\(plan.problems.map(\.message))")
        #expect(plan.fixtures.count == result.caseCount)
    }
}

struct QueryStyleTests {
    @Test func delimitedArraysKeepTheirDelimiter() throws {
        let edge = EdgeCaseTests()
        let parameter = { (name: String, style: String) in
            "{name: \(name), in: query, required: true, style: \(style), schema: {type: array, items: {type: string}}, example: [a, b]}"
        }
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /search:\n    get:\n      parameters: [\(parameter("spaced", "spaceDelimited")), \(parameter("piped", "pipeDelimited")), \(parameter("listed", "form"))]\n      responses:\n        '200': {description: ok}"))
        let contract = edge.text(result, "get-search.json")
        #expect(contract.contains(#""spaced": "a b""#), "\(contract)")
        #expect(contract.contains(#""piped": "a|b""#))
        #expect(contract.contains(#""listed": ["#))
    }
}

struct SettingsFileNameTests {
    /// `contract.json` at the root of a tree holds its settings: an operation called `contract`
    /// must not become that file.
    @Test func anOperationNamedContractIsNotTheSettingsFile() throws {
        let edge = EdgeCaseTests()
        let result = try edge.importYAML(EdgeCaseTests.document(
            paths: "  /contract:\n    get:\n      operationId: contract\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {type: object}}}}"))
        #expect(result.contractCount == 1)
        #expect(result.files.map(\.path).contains("contract-operation.json"))
        #expect(!result.files.map(\.path).contains("contract.json"))
    }
}
