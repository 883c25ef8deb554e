import ContractJSON
import ContractModel
import Testing

@testable import ContractOpenAPI

/// Documents that led the setup rules (an owner's answer, an id another operation answers, a
/// registering call, a name a create is given) to write steps that make nothing real, or to plan
/// without end.
struct ImportSetupAttackTests {
    let stateful = StatefulImportTests()
    let shapes = ResourceShapesImportTests()

    /// Figma's `POST /v2/webhooks` is sent a `team_id` and answers it back; Onfido's
    /// `POST /extractions` a `document_id`. Read as the one operation that answers the id, it ran
    /// before every team's case, made a webhook nothing deleted, and gave back the made-up id.
    @Test func anIDAnOperationIsSentIsNotTakenFromItsAnswer() throws {
        let result = try shapes.importOpenAPI31("""
              /orders:
                post:
                  operationId: createOrder
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [customer_id], properties: {customer_id: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}, customer_id: {type: string}}}}}}
              /orders/{order_id}:
                delete:
                  operationId: deleteOrder
                  parameters: [{name: order_id, in: path, required: true, schema: {type: string}}]
                  responses: {'204': {description: gone}}
              /lookups:
                post:
                  operationId: lookUp
                  parameters: [{name: region_id, in: query, schema: {type: string}}]
                  responses:
                    '200': {description: found, content: {application/json: {schema: {type: object, properties: {region_id: {type: string}}}}}}
              /customers/{customer_id}:
                get:
                  operationId: getCustomer
                  parameters: [{name: customer_id, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: ok}}
              /regions/{region_id}:
                get:
                  operationId: getRegion
                  parameters: [{name: region_id, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: ok}}
            """)
        #expect(stateful.at(try stateful.contract(result, "getCustomer.json"), "/cases/0/setup") == nil)
        #expect(stateful.at(try stateful.contract(result, "getRegion.json"), "/cases/0/setup") == nil)
    }

    /// A user created with a `group_id` answers the same `group_id`: `/user_groups/{id}` is not a
    /// group the user was made with.
    @Test func anOwnerSentTheMemberDoesNotMakeTheItem() throws {
        let result = try shapes.importOpenAPI31("""
              /users:
                post:
                  operationId: createUser
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [group_id], properties: {group_id: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}, group_id: {type: string}}}}}}
              /user_groups/{id}:
                get:
                  operationId: getUserGroup
                  parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: ok}}
            """)
        #expect(stateful.at(try stateful.contract(result, "getUserGroup.json"), "/cases/0/setup") == nil)
    }

    /// `POST /pets/{id}/tags/revoke` requires the `tag` it revokes: with no `DELETE` of a pet's
    /// tag, it is no registration of one.
    @Test func aCallRequiringANameRegistersOnlyWhatTheDocumentDeletes() throws {
        let result = try shapes.importOpenAPI31("""
              /pets:
                post:
                  operationId: createPet
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [kind], properties: {kind: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
              /pets/{petId}/tags/revoke:
                post:
                  operationId: revokeTag
                  parameters: [{name: petId, in: path, required: true, schema: {type: string}}]
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [tag], properties: {tag: {type: string}}}}}}
                  responses: {'200': {description: ok}}
              /pets/{petId}/tags/{tag}:
                get:
                  operationId: getTag
                  parameters: [{name: petId, in: path, required: true, schema: {type: string}}, {name: tag, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: ok}}
            """)
        let read = try stateful.contract(result, "getTag.json")
        let steps = stateful.at(read, "/cases/0/setup")?.arrayValue ?? []
        #expect(!steps.contains { stateful.at($0, "/request/path") == .string("/pets/{petId}/tags/revoke") })
    }

    /// A create made from its schema was given `"name": "example"` where the name's schema
    /// refuses it (an `enum`, a `maxLength` of 3, either as text-or-null): the body no longer
    /// matched and the whole of it was left out, so the case sent no `x` it requires. A `readOnly`
    /// name is the server's.
    @Test func aNameIsAddedOnlyWhereItsSchemaTakesIt() throws {
        let names = [
            "{type: string, enum: [red, blue]}", "{anyOf: [{type: string, enum: [red]}, {type: 'null'}]}",
            "{anyOf: [{type: string, maxLength: 3}, {type: 'null'}]}", "{type: string, readOnly: true}", "{type: string, pattern: '^[0-9]+$'}",
        ]
        var paths = ""
        for (index, name) in names.enumerated() {
            paths += """
                  /things\(index):
                    post:
                      operationId: create\(index)
                      requestBody: {required: true, content: {application/json: {schema: {type: object, additionalProperties: false, required: [x], properties: {x: {type: integer}, name: \(name)}}}}}
                      responses: {'201': {description: created}}

                """
        }
        let result = try shapes.importOpenAPI31(paths)
        for index in names.indices {
            let create = try stateful.contract(result, "create\(index).json")
            #expect(stateful.at(create, "/cases/0/request/body") == .object(JSONObject([JSONObject.Member(key: "x", value: .number(JSONNumber(1)))])), "\(names[index])")
        }
        #expect(!result.diagnostics.contains { $0.message.contains("does not match its schema") }, "\(result.diagnostics.map(\.message))")
        // DigitalOcean's tag name: a pattern the import cannot read (`\:`) is left out, and refuses no name.
        let tags = try shapes.importOpenAPI31("""
              /tags:
                post:
                  operationId: createTag
                  requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string, pattern: '^[a-zA-Z0-9_\\-\\:]+$', maxLength: 255}}}}}}
                  responses: {'201': {description: created}}
            """)
        #expect(stateful.at(try stateful.contract(tags, "createTag.json"), "/cases/0/request/body/name") == .string("example"))
    }

    /// Registrars under registrars, none of which can be made at the bottom: each level tried
    /// every registrar of the level below for every one of its own, 10 to the power of 5 tries
    /// for one case (33 s for this document of 56 operations, and on without end as it grows).
    /// The attempts are counted, never timed: a case tries at most `maximumAttempts` items, so a
    /// level more adds cases, not powers; and every import is the same.
    @Test func registrarsUnderRegistrarsFinish() throws {
        // Without the bound: about 10^5 attempts for the deepest case alone.
        let (deep, cases) = try attempts(depth: 6)
        #expect(deep > 0)
        #expect(deep <= cases * ResourceSetup.maximumAttempts, "attempts: \(deep) for \(cases) contracts")
        let paths = Self.registrars(depth: 6)
        let first = try shapes.importOpenAPI31(paths)
        let second = try shapes.importOpenAPI31(paths)
        #expect(first.files.map(\.bytes) == second.files.map(\.bytes))
    }

    /// The attempts to make items over one import of the document of `depth` levels, and its cases.
    func attempts(depth: Int) throws -> (attempts: Int, cases: Int) {
        let work = SetupWork()
        let result = try SetupWork.$current.withValue(work) { try shapes.importOpenAPI31(Self.registrars(depth: depth)) }
        return (work.attempts, result.files.filter { $0.path.hasSuffix(".json") && !$0.path.contains("/") }.count)
    }

    static func registrars(depth levels: Int) -> String {
        var paths = ""
        for depth in 0..<levels {
            let parents = (0..<depth).map { "{name: n\($0), in: path, required: true, schema: {type: string}}" }
            let collection = (0..<depth).map { "/l\($0)/{n\($0)}" }.joined() + "/l\(depth)"
            for registrar in 0..<(depth == 0 ? 0 : 10) {
                paths += """
                      \(collection)/r\(registrar):
                        post:
                          operationId: register\(depth)_\(registrar)
                          parameters: [\(parents.joined(separator: ", "))]
                          requestBody: {required: true, content: {application/json: {schema: {type: object, required: [n\(depth)], properties: {n\(depth): {type: string}}}}}}
                          responses: {'204': {description: registered}}

                    """
            }
            paths += """
                  \(collection)/{n\(depth)}:
                    parameters: [\((parents + ["{name: n\(depth), in: path, required: true, schema: {type: string}}"]).joined(separator: ", "))]
                    get:
                      operationId: read\(depth)
                      responses: {'200': {description: ok}}
                    delete:
                      operationId: delete\(depth)
                      responses: {'204': {description: gone}}

                """
        }
        return paths
    }

    /// `POST /tags` is sent one tag and answers every tag: its first may be one that was there
    /// before. Read as the tag made, a case on `/tags/{id}` would work on it and its teardown
    /// delete it, and so would the create's own case.
    @Test func aCallSentOneItemThatAnswersAListDoesNotGiveItsFirst() throws {
        let result = try shapes.importOpenAPI31("""
              /tags:
                post:
                  operationId: createTag
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [label], properties: {label: {type: string}}}}}}
                  responses:
                    '200': {description: all tags, content: {application/json: {schema: {type: array, items: {type: object, properties: {id: {type: string}, label: {type: string}}}}}}}
              /tags/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                get:
                  operationId: readTag
                  responses: {'200': {description: ok}}
                delete:
                  operationId: deleteTag
                  responses: {'204': {description: gone}}
            """)
        let read = try stateful.contract(result, "readTag.json")
        #expect(stateful.at(read, "/cases/0/setup") == nil)
        #expect(stateful.at(read, "/cases/0/teardown") == nil)
        let create = try stateful.contract(result, "createTag.json")
        #expect(stateful.at(create, "/cases/0/teardown") == nil)
    }
}
