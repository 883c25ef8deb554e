import ContractJSON
import ContractModel
import Testing

@testable import ContractOpenAPI
import ContractSchema

/// What an import writes so that its suite passes on a real server that keeps state, run after
/// run: one small document per class of failure seen on real servers (docs/openapi.md).
struct StatefulImportTests {
    let edge = EdgeCaseTests()

    func contract(_ result: ImportResult, _ file: String) throws -> JSONValue {
        try JSONParser().parse(Array(edge.text(result, file).utf8)).value
    }

    func at(_ value: JSONValue, _ pointer: String) -> JSONValue? {
        (try? JSONPointer(parsing: pointer)).flatMap { value[pointer: $0] }
    }

    static let flows = """
          /flows/:
            post:
              operationId: createFlow
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/FlowCreate'}}}}
              responses:
                '200': {description: existing, content: {application/json: {schema: {$ref: '#/components/schemas/Flow'}}}}
                '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Flow'}}}}
          /flows/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: string, format: uuid}}]
            get:
              operationId: readFlow
              responses:
                '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Flow'}}}}
            delete:
              operationId: deleteFlow
              responses:
                '204': {description: gone}
          /flows/name/{name}:
            parameters: [{name: name, in: path, required: true, schema: {type: string}}]
            get:
              operationId: readFlowByName
              responses:
                '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Flow'}}}}
          /flow_runs/:
            post:
              operationId: createFlowRun
              requestBody: {required: true, content: {application/json: {schema: {type: object, required: [flow_id], properties: {flow_id: {type: string, format: uuid}}}}}}
              responses:
                '201': {description: created, content: {application/json: {schema: {type: object, required: [id], properties: {id: {type: string}}}}}}
          /work_pools/:
            post:
              operationId: createWorkPool
              requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name, kind], properties: {name: {type: string, pattern: '^[^/%&><]+$'}, kind: {type: string, pattern: '^[a-z]+$'}}}}}}
              responses:
                '201': {description: created, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
        """

    static let components = """
        {FlowCreate: {type: object, required: [name], properties: {name: {type: string, examples: [my-flow]}}}, \
        Flow: {type: object, required: [id, name], properties: {id: {type: string}, name: {type: string}}}}
        """

    func importFlows() throws -> ImportResult {
        let yaml = EdgeCaseTests.document(paths: Self.flows, components: Self.components).replacingOccurrences(of: "openapi: 3.0.3", with: "openapi: 3.1.0")
        let result = try edge.importYAML(yaml)
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        return result
    }

    /// Class 1: a create's name is new to the server in every run, where its schema takes one.
    @Test func namesACreateKeepsUniqueGetAUniqueValue() throws {
        let result = try importFlows()
        let create = try contract(result, "createFlow.json")
        #expect(at(create, "/cases/0/request/body/name") == .string("my-flow-${unique:flow_name}"))
        // A pattern that takes the value with its unique part still gets one; `kind` is not a name.
        let pool = try contract(result, "createWorkPool.json")
        #expect(at(pool, "/cases/0/request/body/name")?.stringValue?.hasSuffix("-${unique:work_pool_name}") == true)
        #expect(at(pool, "/cases/0/request/body/kind")?.stringValue?.contains("${") == false)
        func schema(_ text: String) throws -> JSONObject { try #require(try JSONParser().parse(Array(text.utf8)).value.objectValue) }
        #expect(UniqueMembers.uniqueValue("a", schema: try schema(#"{"type": "string", "pattern": "^[0-9]+$"}"#), variable: "x") == nil, "no unique value fits")
        #expect(UniqueMembers.uniqueValue("a", schema: try schema(#"{"type": "string", "format": "email"}"#), variable: "x") == "${unique:x}@example.com")
        #expect(UniqueMembers.uniqueValue("abc", schema: try schema(#"{"type": "string", "maxLength": 12}"#), variable: "x") == "${unique:x}")
        #expect(UniqueMembers.uniqueValue("abc", schema: try schema(#"{"type": "string", "maxLength": 11}"#), variable: "x") == nil)
        // Letters only: a unique value with a digit breaks it, whatever the stand-in fixtures use.
        #expect(UniqueMembers.uniqueValue("admin", schema: try schema(#"{"type": "string", "pattern": "^[a-z-]+$"}"#), variable: "role_slug") == nil)
    }

    /// Class 2: a body member naming another resource by id gets that resource made first.
    @Test func aBodyReferenceGetsItsResourceMadeFirstAndRemovedAfter() throws {
        let result = try importFlows()
        let run = try contract(result, "createFlowRun.json")
        let steps = try #require(at(run, "/cases/0/setup")?.arrayValue)
        #expect(steps.count == 1)
        #expect(at(steps[0], "/request/path") == .string("/flows/"))
        #expect(at(steps[0], "/capture/flow_id") == .string("/id"))
        #expect(at(run, "/cases/0/request/body/flow_id") == .string("${capture:flow_id}"))
        let teardown = try #require(at(run, "/cases/0/teardown")?.arrayValue)
        #expect(teardown.map { at($0, "/request/method") } == [.string("DELETE")])
        #expect(at(teardown[0], "/request/pathParams/id") == .string("${capture:flow_id}"))
        // The member the steps fill is no longer listed as made up.
        #expect(!result.madeUpValues.contains { $0.name == "flow_id" && $0.usedBy.contains("createFlowRun/created") })
    }

    /// Class 4: statuses a create documents with one content are all accepted.
    @Test func successStatusesWithOneContentAreAllAccepted() throws {
        let create = try contract(try importFlows(), "createFlow.json")
        #expect(at(create, "/cases/0/response/status") == .array([.number(JSONNumber(200)), .number(JSONNumber(201))]))
    }

    /// Class 6: what a POST case creates is captured from its answer and deleted after it; an
    /// item made for a read is deleted after the read.
    @Test func teardownRemovesWhatSetupAndCreatesMade() throws {
        let result = try importFlows()
        let create = try contract(result, "createFlow.json")
        #expect(at(create, "/cases/0/capture/flow_id") == .string("/id"))
        #expect(at(create, "/cases/0/teardown/0/request/pathParams/id") == .string("${capture:flow_id}"))
        let read = try contract(result, "readFlow.json")
        #expect(at(read, "/cases/0/setup/0/capture/id") == .string("/id"))
        #expect(at(read, "/cases/0/teardown/0/request/path") == .string("/flows/{id}"))
        #expect(at(read, "/cases/0/teardown/0/request/pathParams/id") == .string("${capture:id}"))
    }

    /// An item read by its name is made by its collection's POST with the same unique name.
    @Test func anItemReadByNameIsMadeWithThatName() throws {
        let read = try contract(try importFlows(), "readFlowByName.json")
        #expect(at(read, "/cases/0/setup/0/request/body/name") == .string("my-flow-${unique:flow_name}"))
        #expect(at(read, "/cases/0/request/pathParams/name") == .string("my-flow-${unique:flow_name}"))
        #expect(at(read, "/cases/0/teardown/0/request/pathParams/id") == .string("${capture:flow_id}"))
    }

    /// Class 3: where the client names an item (`PUT /buckets/{id}`, no POST), a case on it, or
    /// below it, puts it first at a unique id.
    @Test func itemsTheClientNamesArePutFirstAtAUniqueID() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /buckets/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                put:
                  operationId: putBucket
                  requestBody: {content: {application/json: {schema: {type: object}}}}
                  responses:
                    '200': {description: replaced, content: {application/json: {schema: {type: object}}}}
                    '201': {description: created, content: {application/json: {schema: {type: object}}}}
                get:
                  operationId: getBucket
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {type: object}}}}
                delete:
                  operationId: deleteBucket
                  responses:
                    '200': {description: deleted, content: {application/json: {schema: {type: object}}}}
              /buckets/{bucket_id}/collections/{id}:
                parameters:
                  - {name: bucket_id, in: path, required: true, schema: {type: string}}
                  - {name: id, in: path, required: true, schema: {type: string}}
                get:
                  operationId: getCollection
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {type: object}}}}
            """))
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        let get = try contract(result, "getBucket.json")
        #expect(at(get, "/cases/0/setup/0/request/method") == .string("PUT"))
        #expect(at(get, "/cases/0/setup/0/request/pathParams/id") == .string("${unique:id}"))
        #expect(at(get, "/cases/0/request/pathParams/id") == .string("${unique:id}"))
        #expect(at(get, "/cases/0/teardown/0/request/pathParams/id") == .string("${unique:id}"))
        // A collection below a bucket: the bucket is put first; the collection itself has no way
        // to be made, so the case is left as it was.
        let below = try contract(result, "getCollection.json")
        #expect(at(below, "/cases/0/setup") == nil)
        // The PUT documents 200 and 201 with one content: both are accepted.
        let put = try contract(result, "putBucket.json")
        #expect(at(put, "/cases/0/response/status") == .array([.number(JSONNumber(200)), .number(JSONNumber(201))]))
    }

    /// Class 4: a request without credentials may be refused with 401 or 403; an operation that
    /// also takes anonymous calls gets no such case.
    @Test func noCredentialsAccepts403AndAnonymousOperationsHaveNoSuchCase() throws {
        let document = """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            security: [{token: []}]
            components:
              securitySchemes: {token: {type: http, scheme: bearer}}
            paths:
              /private:
                get:
                  operationId: private
                  responses:
                    '200': {description: ok}
                    '401': {description: no credentials}
                    '403': {description: no credentials}
              /public:
                get:
                  operationId: public
                  security: [{token: []}, {}]
                  responses:
                    '200': {description: ok}
                    '401': {description: bad credentials}
            """
        let result = try edge.importYAML(document)
        let closed = try contract(result, "private.json")
        #expect(at(closed, "/cases/1/name") == .string("no-credentials"))
        #expect(at(closed, "/cases/1/response/status") == .array([.number(JSONNumber(401)), .number(JSONNumber(403))]))
        let open = try contract(result, "public.json")
        #expect(at(open, "/cases")?.arrayValue?.count == 1)
    }

    /// Class 5: body members made up from the schema are listed with the cases that send them.
    @Test func madeUpBodyMembersAreListed() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /notes:
                post:
                  operationId: addNote
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [text, kernel], properties: {text: {type: string}, kernel: {type: string}}}}}}
                  responses:
                    '201': {description: created}
            """))
        let listed = result.madeUpValues.filter { $0.location == "body" }.map(\.name).sorted()
        #expect(listed == ["kernel", "text"])
        // And --value fills them.
        let given = try edge.importYAML(
            EdgeCaseTests.document(paths: """
                  /notes:
                    post:
                      operationId: addNote
                      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [kernel], properties: {kernel: {type: string}}}}}}
                      responses:
                        '201': {description: created}
                """), values: ["kernel": .string("python3")])
        #expect(edge.text(given, "addNote.json").contains(#""kernel": "python3""#))
        #expect(!given.madeUpValues.contains { $0.name == "kernel" })
    }

    /// Class 8: a path key with a query string is an operation that always sends those values.
    @Test func aPathKeyWithAQueryStringSendsItsValues() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /v1/files?beta=true&view=a%20b&tag=x&tag=y:
                get:
                  operationId: listBetaFiles
                  responses:
                    '200': {description: ok}
            """))
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        let list = try contract(result, "listBetaFiles.json")
        #expect(at(list, "/request/path") == .string("/v1/files"))
        #expect(at(list, "/request/query") == .object(JSONObject([
            .init(key: "beta", value: "true"), .init(key: "view", value: "a b"), .init(key: "tag", value: .array(["x", "y"])),
        ])))
    }

    static let owners = """
          /owners:
            post:
              operationId: createOwner
              requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
              responses:
                '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
          /owners/{owner_id}:
            parameters: [{name: owner_id, in: path, required: true, schema: {type: string}}]
            delete:
              operationId: deleteOwner
              responses: {'204': {description: gone}}
          /owners/{id}/pets:
            parameters: [{name: id, in: path, required: true, schema: {type: string}}]
            post:
              operationId: createPet
              requestBody: {required: true, content: {application/json: {schema: {type: object, required: [owner_id, ownerId], properties: {owner_id: {type: string}, ownerId: {type: string}}}}}}
              responses:
                '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
          /owners/{owner_id}/pets/{id}:
            parameters:
              - {name: owner_id, in: path, required: true, schema: {type: string}}
              - {name: id, in: path, required: true, schema: {type: string}}
            get:
              operationId: getPet
              responses: {'200': {description: ok}}
            put:
              operationId: putPet
              requestBody: {required: true, content: {application/json: {schema: {type: object, required: [toy_id], properties: {toy_id: {type: string}}}}}}
              responses: {'200': {description: ok}}
            delete:
              operationId: deletePet
              responses: {'204': {description: gone}}
          /toys:
            post:
              operationId: createToy
              requestBody: {required: true, content: {application/json: {schema: {type: object, required: [label], properties: {label: {type: string}}}}}}
              responses:
                '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
          /toys/{toy_id}:
            parameters: [{name: toy_id, in: path, required: true, schema: {type: string}}]
            delete:
              operationId: deleteToy
              responses: {'204': {description: gone}}
        """

    /// Each item made once in a case, under capture names of its own, and deleted in the reverse
    /// order of its making (what refers to another item first).
    @Test func everyItemIsMadeOnceUnderItsOwnNameAndDeletedChildrenFirst() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: Self.owners))
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        let get = try contract(result, "getPet.json")
        let steps = try #require(at(get, "/cases/0/setup")?.arrayValue)
        // The pet's creator calls its owner `{id}`, the case `{owner_id}`; the pet is `{id}` too.
        #expect(steps.map { at($0, "/name") } == [.string("create-owner"), .string("create-pet")])
        #expect(at(steps[0], "/capture") == .object(JSONObject([.init(key: "id", value: "/id")])))
        #expect(at(steps[1], "/capture") == .object(JSONObject([.init(key: "pet_id", value: "/id")])))
        // Both body members that name an owner read the one the case made.
        #expect(at(steps[1], "/request/body") == .object(JSONObject([.init(key: "owner_id", value: "${capture:id}"), .init(key: "ownerId", value: "${capture:id}")])))
        #expect(at(get, "/cases/0/request/pathParams/owner_id") == .string("${capture:id}"))
        #expect(at(get, "/cases/0/request/pathParams/id") == .string("${capture:pet_id}"))
        let teardown = try #require(at(get, "/cases/0/teardown")?.arrayValue)
        #expect(teardown.map { at($0, "/name") } == [.string("delete-pet"), .string("delete-owner")])
        #expect(at(teardown[0], "/request/pathParams/id") == .string("${capture:pet_id}"))
        // The toy a PUT makes the pet refer to is made before the pet and deleted after it.
        let put = try contract(result, "putPet.json")
        #expect(at(put, "/cases/0/setup")?.arrayValue?.map { at($0, "/name") } == [.string("create-toy"), .string("create-owner"), .string("create-pet")])
        #expect(at(put, "/cases/0/teardown")?.arrayValue?.map { at($0, "/name") } == [.string("delete-pet"), .string("delete-owner"), .string("delete-toy")])
    }

    /// Resources whose creates name each other: each is made once per case, so the steps grow
    /// with the resources, never with the paths between them.
    @Test func resourcesThatNameEachOtherAreMadeOnce() throws {
        let count = 6
        var paths = ""
        for index in 0..<count {
            let others = (0..<count).filter { $0 != index }.map { "node\($0)_id" }
            let properties = others.map { "\($0): {type: string}" }.joined(separator: ", ")
            paths += """
                  /node\(index)s:
                    post:
                      operationId: createNode\(index)
                      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [\(others.joined(separator: ", "))], properties: {\(properties)}}}}}
                      responses:
                        '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}

                """
        }
        let result = try edge.importYAML(EdgeCaseTests.document(paths: paths))
        #expect(edge.lintErrors(result).isEmpty, "\(edge.lintErrors(result))")
        for index in 0..<count {
            let create = try contract(result, "createNode\(index).json")
            let steps = at(create, "/cases/0/setup")?.arrayValue ?? []
            // Each kind once: the others, and one of its own for the others to name.
            #expect(steps.count == count, "createNode\(index): \(steps.count) steps")
            let paths = steps.compactMap { at($0, "/request/path")?.stringValue }
            #expect(Set(paths).count == paths.count, "\(paths)")
            let names = steps.compactMap { at($0, "/name")?.stringValue }
            #expect(Set(names).count == names.count)
        }
    }

    /// A PUT that makes the item it names is not preceded by a PUT of the same item.
    @Test func aPutThatMakesItsItemMakesOnlyItsParents() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /buckets/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                put:
                  operationId: putBucket
                  responses: {'201': {description: created}}
              /buckets/{bucket_id}/collections/{id}:
                parameters:
                  - {name: bucket_id, in: path, required: true, schema: {type: string}}
                  - {name: id, in: path, required: true, schema: {type: string}}
                put:
                  operationId: putCollection
                  responses: {'201': {description: created}}
            """))
        let put = try contract(result, "putCollection.json")
        #expect(at(put, "/cases/0/setup")?.arrayValue?.map { at($0, "/request/path") } == [.string("/buckets/{id}")])
        #expect(at(put, "/cases/0/request/pathParams/bucket_id") == .string("${unique:bucket_id}"))
        #expect(at(put, "/cases/0/request/pathParams/id") == .string("${unique:id}"))
    }

    /// A PATCH made from a schema that requires nothing changes one member a client may set:
    /// not one the server sets (`readOnly`), through `allOf` too.
    @Test func aPatchChangesOneMemberTheClientMaySet() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /things/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                patch:
                  operationId: patchThing
                  requestBody: {content: {application/json: {schema: {allOf: [{$ref: '#/components/schemas/Base'}, {properties: {size: {type: integer}}}]}}}}
                  responses: {'200': {description: ok}}
            """, components: "{Base: {type: object, properties: {id: {type: integer, readOnly: true}, name: {type: string}}}}"))
        let patch = try contract(result, "patchThing.json")
        #expect(at(patch, "/cases/0/request/body") == .object(JSONObject([.init(key: "name", value: "example")])))
    }

    /// A unique id where the case's own parameter takes none: the case is left as it was, for
    /// the user's `--value`, rather than sent a value its own contract refuses.
    @Test func aUniqueIDTheCasesParameterRefusesIsNotSent() throws {
        let result = try edge.importYAML(EdgeCaseTests.document(paths: """
              /accounts/{account_id}:
                parameters: [{name: account_id, in: path, required: true, schema: {type: string}}]
                put:
                  operationId: putAccount
                  responses: {'201': {description: created}}
              /accounts/{account_id}/rules:
                parameters: [{name: account_id, in: path, required: true, schema: {type: string, pattern: '^[0-9a-f]{32}$'}}]
                get:
                  operationId: listRules
                  responses: {'200': {description: ok}}
            """))
        let list = try contract(result, "listRules.json")
        #expect(at(list, "/cases/0/setup") == nil)
        #expect(at(list, "/cases/0/request/pathParams/account_id")?.stringValue?.contains("${") == false)
    }
}
