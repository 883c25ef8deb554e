import ContractJSON
import ContractModel
import Testing

@testable import ContractOpenAPI

/// Shapes of the items a case needs that real servers have and the first stateful import missed
/// (seen on Prefect's own description): an optional name written as "text or null", a key the
/// create may send but need not, a create that takes and answers a list.
struct ResourceShapesImportTests {
    let stateful = StatefulImportTests()

    func importOpenAPI31(_ paths: String, components: String = "{}") throws -> ImportResult {
        let yaml = EdgeCaseTests.document(paths: paths, components: components).replacingOccurrences(of: "openapi: 3.0.3", with: "openapi: 3.1.0")
        let result = try stateful.edge.importYAML(yaml)
        #expect(stateful.edge.lintErrors(result).isEmpty, "\(stateful.edge.lintErrors(result))")
        return result
    }

    /// Pydantic writes an optional string as `anyOf: [{type: string, …}, {type: null}]`: a create
    /// whose server refuses an item without a name ("Names must be provided") gets one, unique.
    @Test func anOptionalNameWrittenAsTextOrNullIsSentUnique() throws {
        let result = try importOpenAPI31("""
              /block_documents/:
                post:
                  operationId: createBlockDocument
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [data], properties: {name: {anyOf: [{type: string, pattern: '^[^/%&><]+$'}, {type: 'null'}]}, data: {type: object}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
            """)
        let create = try stateful.contract(result, "createBlockDocument.json")
        #expect(stateful.at(create, "/cases/0/request/body/name") == .string("example-${unique:block_document_name}"))
        func schema(_ text: String) throws -> JSONObject { try #require(try JSONParser().parse(Array(text.utf8)).value.objectValue) }
        // Text or null takes the text branch's limits; a choice of two kinds of text is not read.
        #expect(UniqueMembers.uniqueValue("", schema: try schema(#"{"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}]}"#), variable: "x") == nil)
        #expect(UniqueMembers.uniqueValue("", schema: try schema(#"{"oneOf": [{"type": "null"}, {"type": "string"}]}"#), variable: "x") == "${unique:x}")
        #expect(UniqueMembers.uniqueValue("", schema: try schema(#"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#), variable: "x") == nil)
    }

    /// An item read by a key its create may send but need not (`POST /artifacts/` with an
    /// optional `key`, read at `/artifacts/{key}/latest`): the setup sends a unique key and the
    /// read uses it, rather than capturing the `null` an item made without one has.
    @Test func aKeyTheCreateMaySendIsSentForAReadByIt() throws {
        let result = try importOpenAPI31("""
              /artifacts/:
                post:
                  operationId: createArtifact
                  requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/ArtifactCreate'}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Artifact'}}}}
              /artifacts/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: string, format: uuid}}]
                delete:
                  operationId: deleteArtifact
                  responses:
                    '204': {description: gone}
              /artifacts/{key}/latest:
                parameters: [{name: key, in: path, required: true, schema: {type: string}}]
                get:
                  operationId: readLatestArtifact
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Artifact'}}}}
            """,
            components: """
                {ArtifactCreate: {type: object, properties: {key: {anyOf: [{type: string}, {type: 'null'}]}, data: {type: object}}}, \
                Artifact: {type: object, properties: {id: {type: string}, key: {anyOf: [{type: string}, {type: 'null'}]}}}}
                """)
        let read = try stateful.contract(result, "readLatestArtifact.json")
        #expect(stateful.at(read, "/cases/0/setup/0/request/body/key") == .string("${unique:artifact_key}"))
        #expect(stateful.at(read, "/cases/0/request/pathParams/key") == .string("${unique:artifact_key}"))
        #expect(stateful.at(read, "/cases/0/setup/0/capture/artifact_id") == .string("/id"))
        #expect(stateful.at(read, "/cases/0/teardown/0/request/pathParams/id") == .string("${capture:artifact_id}"))
    }

    /// A create that takes and answers a list (`POST /deployments/{id}/schedules`): the item a
    /// case needs is the first of the answer, `/0/id`, with its parent made before it.
    @Test func aCreateAnsweringAListGivesItsFirstItem() throws {
        let result = try importOpenAPI31("""
              /deployments/:
                post:
                  operationId: createDeployment
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
              /deployments/{id}/schedules:
                parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                post:
                  operationId: createSchedules
                  requestBody: {required: true, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Schedule'}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Schedule'}}}}}
              /deployments/{id}/schedules/{schedule_id}:
                parameters:
                  - {name: id, in: path, required: true, schema: {type: string}}
                  - {name: schedule_id, in: path, required: true, schema: {type: string}}
                delete:
                  operationId: deleteSchedule
                  responses:
                    '204': {description: gone}
            """,
            components: "{Schedule: {type: object, required: [interval], properties: {id: {type: string, readOnly: true}, interval: {type: integer}}}}")
        let delete = try stateful.contract(result, "deleteSchedule.json")
        let steps = try #require(stateful.at(delete, "/cases/0/setup")?.arrayValue)
        #expect(steps.compactMap { stateful.at($0, "/request/path")?.stringValue } == ["/deployments/", "/deployments/{id}/schedules"])
        #expect(stateful.at(steps[1], "/capture/schedule_id") == .string("/0/id"))
        #expect(stateful.at(delete, "/cases/0/request/pathParams/schedule_id") == .string("${capture:schedule_id}"))
        #expect(stateful.at(delete, "/cases/0/request/pathParams/id") == stateful.at(steps[1], "/request/pathParams/id"))
        // The create's own case removes the schedule it made, read from its answer's first item.
        let create = try stateful.contract(result, "createSchedules.json")
        #expect(stateful.at(create, "/cases/0/capture/schedule_id") == .string("/0/id"))
    }

    /// An item made with its owner (`/flow_run_states/{id}`: a flow run is created in a state and
    /// answers its `state_id`): the owner is made, the state's id captured from the same answer,
    /// and the owner deleted after.
    @Test func anItemMadeWithItsOwnerIsReadFromTheOwnersAnswer() throws {
        let result = try importOpenAPI31("""
              /flow_runs/:
                post:
                  operationId: createFlowRun
                  requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}, state_id: {type: string}}}}}}
              /flow_runs/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                delete:
                  operationId: deleteFlowRun
                  responses:
                    '204': {description: gone}
              /flow_run_states/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: string, format: uuid}}]
                get:
                  operationId: readFlowRunState
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {type: object}}}}
            """)
        let read = try stateful.contract(result, "readFlowRunState.json")
        let steps = try #require(stateful.at(read, "/cases/0/setup")?.arrayValue)
        #expect(steps.count == 1)
        #expect(stateful.at(steps[0], "/request/path") == .string("/flow_runs/"))
        #expect(stateful.at(steps[0], "/capture/flow_run_state_id") == .string("/state_id"))
        #expect(stateful.at(read, "/cases/0/request/pathParams/id") == .string("${capture:flow_run_state_id}"))
        let ownerID = try #require(stateful.at(steps[0], "/capture")?.objectValue?.members.first { $0.value == .string("/id") }?.key)
        #expect(stateful.at(read, "/cases/0/teardown/0/request/pathParams/id") == .string("${capture:\(ownerID)}"))
        #expect(!result.madeUpValues.contains { $0.usedBy.contains("readFlowRunState/ok") })
    }

    /// An id only one operation answers, under its own name (`lease_id` from an increment): that
    /// operation runs first and the id is captured; an `id` alone, or a name two operations
    /// answer, is left made up.
    @Test func anIDOneOperationAnswersIsTakenFromIt() throws {
        let result = try importOpenAPI31("""
              /limits/increment-with-lease:
                post:
                  operationId: increment
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [slots], properties: {slots: {type: integer, minimum: 1}}}}}}
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {type: object, properties: {lease_id: {type: string}}}}}}
              /limits/leases/{lease_id}/renew:
                parameters: [{name: lease_id, in: path, required: true, schema: {type: string}}]
                post:
                  operationId: renew
                  responses:
                    '204': {description: renewed}
              /tokens/a:
                post:
                  operationId: tokenA
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {type: object, properties: {token_id: {type: string}}}}}}
              /tokens/b:
                post:
                  operationId: tokenB
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {type: object, properties: {token_id: {type: string}}}}}}
              /tokens/{token_id}:
                parameters: [{name: token_id, in: path, required: true, schema: {type: string}}]
                get:
                  operationId: readToken
                  responses:
                    '200': {description: ok}
            """)
        let renew = try stateful.contract(result, "renew.json")
        #expect(stateful.at(renew, "/cases/0/setup/0/request/path") == .string("/limits/increment-with-lease"))
        #expect(stateful.at(renew, "/cases/0/setup/0/request/body/slots") != nil)
        #expect(stateful.at(renew, "/cases/0/setup/0/capture/lease_id") == .string("/lease_id"))
        #expect(stateful.at(renew, "/cases/0/request/pathParams/lease_id") == .string("${capture:lease_id}"))
        let read = try stateful.contract(result, "readToken.json")
        #expect(stateful.at(read, "/cases/0/setup") == nil, "two operations answer a token_id: which one is meant is not known")
    }

    /// An item a call below its collection registers by a name the client sends (a worker's
    /// heartbeat): the call runs first with a unique name, its pool made before it; a search
    /// that only may take a name registers nothing.
    @Test func anItemACallRegistersIsRegisteredFirst() throws {
        let result = try importOpenAPI31("""
              /work_pools/:
                post:
                  operationId: createPool
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}, name: {type: string}}}}}}
              /work_pools/{name}:
                parameters: [{name: name, in: path, required: true, schema: {type: string}}]
                delete:
                  operationId: deletePool
                  responses:
                    '204': {description: gone}
              /work_pools/{work_pool_name}/workers/heartbeat:
                parameters: [{name: work_pool_name, in: path, required: true, schema: {type: string}}]
                post:
                  operationId: heartbeat
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
                  responses:
                    '204': {description: registered}
              /work_pools/{work_pool_name}/workers/{name}:
                parameters:
                  - {name: work_pool_name, in: path, required: true, schema: {type: string}}
                  - {name: name, in: path, required: true, schema: {type: string}}
                delete:
                  operationId: deleteWorker
                  responses:
                    '204': {description: gone}
              /queues/search:
                post:
                  operationId: searchQueues
                  requestBody: {content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
                  responses:
                    '200': {description: found, content: {application/json: {schema: {type: array, items: {type: object}}}}}
              /queues/{name}:
                parameters: [{name: name, in: path, required: true, schema: {type: string}}]
                get:
                  operationId: readQueue
                  responses:
                    '200': {description: ok}
            """)
        let delete = try stateful.contract(result, "deleteWorker.json")
        let steps = try #require(stateful.at(delete, "/cases/0/setup")?.arrayValue)
        #expect(steps.compactMap { stateful.at($0, "/request/path")?.stringValue } == ["/work_pools/", "/work_pools/{work_pool_name}/workers/heartbeat"])
        let sent = try #require(stateful.at(steps[1], "/request/body/name")?.stringValue)
        #expect(sent.contains("${unique:"))
        #expect(stateful.at(delete, "/cases/0/request/pathParams/name") == .string(sent))
        #expect(stateful.at(delete, "/cases/0/request/pathParams/work_pool_name") == stateful.at(steps[1], "/request/pathParams/work_pool_name"))
        // The worker is removed before its pool.
        #expect(stateful.at(delete, "/cases/0/teardown")?.arrayValue?.compactMap { stateful.at($0, "/request/path")?.stringValue }
            == ["/work_pools/{work_pool_name}/workers/{name}", "/work_pools/{name}"])
        let read = try stateful.contract(result, "readQueue.json")
        #expect(stateful.at(read, "/cases/0/setup") == nil, "a search that may take a name makes no queue")
    }

    /// An item named by its own name and its flow's (`/deployments/name/{flow_name}/{deployment_name}`),
    /// or by its type's slug and its own name: the item is made with a unique name, the items its
    /// create refers to made first, and each placeholder reads the name the item it names was
    /// made with.
    @Test func anItemNamedByItsNameAndItsOwnersIsMadeWithBoth() throws {
        let result = try importOpenAPI31("""
              /flows/:
                post:
                  operationId: createFlow
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}, name: {type: string}}}}}}
              /deployments/:
                post:
                  operationId: createDeployment
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name, flow_id], properties: {name: {type: string}, flow_id: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
              /deployments/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                delete:
                  operationId: deleteDeployment
                  responses:
                    '204': {description: gone}
              /deployments/name/{flow_name}/{deployment_name}:
                parameters:
                  - {name: flow_name, in: path, required: true, schema: {type: string}}
                  - {name: deployment_name, in: path, required: true, schema: {type: string}}
                get:
                  operationId: readDeploymentByName
                  responses:
                    '200': {description: ok}
              /block_types/:
                post:
                  operationId: createBlockType
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [slug], properties: {slug: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
              /block_documents/:
                post:
                  operationId: createBlockDocument
                  requestBody: {required: true, content: {application/json: {schema: {type: object, required: [block_type_id], properties: {name: {type: string}, block_type_id: {type: string}}}}}}
                  responses:
                    '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
              /block_types/slug/{slug}/block_documents/name/{block_document_name}:
                parameters:
                  - {name: slug, in: path, required: true, schema: {type: string}}
                  - {name: block_document_name, in: path, required: true, schema: {type: string}}
                get:
                  operationId: readBlockDocumentByNames
                  responses:
                    '200': {description: ok}
            """)
        let deployment = try stateful.contract(result, "readDeploymentByName.json")
        let steps = try #require(stateful.at(deployment, "/cases/0/setup")?.arrayValue)
        #expect(steps.compactMap { stateful.at($0, "/request/path")?.stringValue } == ["/flows/", "/deployments/"])
        let flowName = try #require(stateful.at(steps[0], "/request/body/name")?.stringValue)
        let deploymentName = try #require(stateful.at(steps[1], "/request/body/name")?.stringValue)
        #expect(flowName.contains("${unique:") && deploymentName.contains("${unique:") && flowName != deploymentName)
        #expect(stateful.at(deployment, "/cases/0/request/pathParams/flow_name") == .string(flowName))
        #expect(stateful.at(deployment, "/cases/0/request/pathParams/deployment_name") == .string(deploymentName))
        #expect(stateful.at(deployment, "/cases/0/teardown/0/request/path") == .string("/deployments/{id}"))
        let block = try stateful.contract(result, "readBlockDocumentByNames.json")
        let blockSteps = try #require(stateful.at(block, "/cases/0/setup")?.arrayValue)
        #expect(blockSteps.compactMap { stateful.at($0, "/request/path")?.stringValue } == ["/block_types/", "/block_documents/"])
        #expect(stateful.at(block, "/cases/0/request/pathParams/slug") == stateful.at(blockSteps[0], "/request/body/slug"))
        #expect(stateful.at(block, "/cases/0/request/pathParams/block_document_name") == stateful.at(blockSteps[1], "/request/body/name"))
        #expect(stateful.at(block, "/cases/0/request/pathParams/slug")?.stringValue?.contains("${unique:") == true)
    }
}
