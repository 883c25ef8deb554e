import ContractJSON
import ContractModel
import ContractOpenAPI
import Foundation
import Testing

/// The list of a document's operations that `contract coverage --openapi` reads: what the import
/// walks, placed where each operation is written.
struct DocumentOperationsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("operations-\(UUID().uuidString)")

    func write(_ text: String, to name: String) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func read(_ name: String) throws -> DocumentOperations.List {
        try DocumentOperations.read(path: folder.appendingPathComponent(name).path, shownAs: name)
    }

    @Test func pathsInTheDocumentsOrderMethodsInTheImportsWithRequestPathsAndResponses() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(
            """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /pets/{petId}:
                trace:
                  responses: {'200': {description: ok}}
                get:
                  operationId: getPet
                  responses:
                    '200': {description: ok}
                    4XX: {description: client error}
                    x-internal: {description: not a response}
                    default: {description: other}
              /files/{id}#shared_link:
                get:
                  responses: {'200': {$ref: '#/components/responses/Ok'}, '404': {$ref: '#/components/responses/Missing'}}
              /v1/files?beta=true:
                post: {}
            webhooks:
              petAdded: {post: {responses: {'200': {description: ok}}}}
            components:
              responses:
                Ok: {description: ok}
            """, to: "api.yaml")
        let list = try read("api.yaml")
        #expect(list.operations.map(\.label) == ["GET /pets/{petId}", "TRACE /pets/{petId}", "GET /files/{id}#shared_link", "POST /v1/files?beta=true"])
        #expect(list.operations.map(\.requestPath) == ["/pets/{petId}", "/pets/{petId}", "/files/{id}", "/v1/files"])
        #expect(list.operations.map(\.operationID) == ["getPet", nil, nil, nil])
        // An extension is no response; a response whose `$ref` points to nothing is left out, as
        // the import leaves it out, and the reading's warning says so.
        #expect(list.operations.map(\.responses) == [["200", "4XX", "default"], ["200"], ["200"], []])
        #expect(list.diagnostics.contains { $0.message.contains("'#/components/responses/Missing' points to nothing") }, "\(list.diagnostics)")
        let get = try #require(list.operations.first)
        #expect([get.file, "\(get.line):\(get.column)"] == ["api.yaml", "8:7"])
        #expect(get.pointer == JSONPointer(tokens: ["paths", "/pets/{petId}", "get"]))
    }

    @Test func pathItemsAndOperationsByReferenceArePlacedInTheFileThatHoldsThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(
            """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /pets: {$ref: 'paths/pets.yaml'}
              /pets/{id}:
                delete: {$ref: 'operations/delete-pet.yaml'}
            """, to: "api.yaml")
        try write("get:\n  operationId: listPets\n  responses:\n    '200': {description: ok}\n", to: "paths/pets.yaml")
        try write("operationId: deletePet\nresponses:\n  '204': {description: gone}\n", to: "operations/delete-pet.yaml")
        let operations = try read("api.yaml").operations
        #expect(operations.map(\.label) == ["GET /pets", "DELETE /pets/{id}"])
        #expect(operations.map { "\($0.file):\($0.line):\($0.column) \($0.pointer)" } == ["paths/pets.yaml:2:3 /get", "operations/delete-pet.yaml:1:1 "])
        #expect(operations.map(\.responses) == [["200"], ["204"]])
    }

    @Test func aSwagger2DocumentListsItsOperationsAsWritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(
            """
            {"swagger": "2.0", "info": {"title": "t", "version": "1"},
             "paths": {"/pets": {"post": {"operationId": "addPet", "responses": {"201": {"description": "made"}, "default": {"description": "error"}}}}}}
            """, to: "swagger.json")
        let operations = try read("swagger.json").operations
        #expect(operations.map(\.label) == ["POST /pets"])
        #expect(operations.map(\.responses) == [["201", "default"]])
        // Placed in the 2.0 file as written, not in the 3.0 document it is read as.
        #expect(operations.map { "\($0.file):\($0.line) \($0.pointer)" } == ["swagger.json:2 /paths/~1pets/post"])
    }

    @Test func aDocumentThatCannotBeReadIsTheImportsErrorInItsFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("openapi: 4.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n", to: "api.yaml")
        #expect {
            try read("api.yaml")
        } throws: { error in
            let diagnostics = (error as? DiagnosticsError)?.diagnostics ?? []
            return diagnostics.map { "\($0.file ?? ""):\($0.location?.line ?? 0) \($0.message)" }
                == ["api.yaml:1 OpenAPI 4.0.0 is not supported: 3.0.x, 3.1.x and 3.2.x are"]
        }
    }
}
