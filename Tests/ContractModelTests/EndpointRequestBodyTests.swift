import ContractJSON
import ContractModel
import Testing

/// The body every request sends, described once at the endpoint (`request.schema`,
/// `request.contentType`): every case's body is checked against it, except a case that expects a
/// 4xx, which may break it on purpose.
struct EndpointRequestBodyTests {
    static func load(endpoint: String, cases: String) -> ContractSet {
        let text = #"{ "id": "create", "request": { "method": "POST", "path": "/products"\#(endpoint) }, "cases": \#(cases) }"#
        return ContractLoader.load(files: [SourceFile(path: "c/create.json", relativePath: "create.json", bytes: Array(text.utf8))], directory: "c")
    }

    static let schema = #", "schema": { "type": "object", "required": ["name"], "properties": { "name": { "type": "string" }, "price": { "type": "number" } }, "additionalProperties": false }"#

    func messages(_ set: ContractSet) -> [String] {
        set.diagnostics.map { "\($0.pointer?.description ?? "") \($0.message)" }
    }

    @Test func everyCaseBodyIsCheckedAgainstTheEndpointsSchema() throws {
        let set = Self.load(endpoint: Self.schema, cases: """
            [{ "name": "ok", "request": { "body": { "name": "Eraser", "price": 1.5 } }, "response": { "status": 201 } },
             { "name": "typo", "request": { "body": { "nme": "Eraser" } }, "response": { "status": 201 } },
             { "name": "string-price", "request": { "body": { "name": "Eraser", "price": "1.5" } }, "response": { "status": 201 } },
             { "name": "invalid", "request": { "body": { "nme": 1 } }, "response": { "status": 422 } }]
            """)
        let found = messages(set)
        #expect(found.count == 2, "\(found)")
        #expect(found.contains { $0.hasPrefix("/cases/1/request/body ") && $0.contains("does not match its schema") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("/cases/2/request/body/price ") && $0.contains("does not match its schema") }, "\(found)")
        let endpoint = try #require(set.contracts.first).endpoint
        #expect(endpoint.schema?.pointer == JSONPointer(tokens: ["request", "schema"]))
        #expect(endpoint.contentType == nil)
    }

    @Test func aCaseSendingAnotherMediaTypeIsAnErrorUnlessItExpectsA4xx() {
        let set = Self.load(endpoint: Self.schema + #", "contentType": "application/json; charset=utf-8""#, cases: """
            [{ "name": "ok", "request": { "body": { "name": "a" }, "headers": { "Content-Type": "application/json" } }, "response": { "status": 201 } },
             { "name": "plain", "request": { "body": { "name": "a" }, "headers": { "Content-Type": "text/plain" } }, "response": { "status": 201 } },
             { "name": "refused", "request": { "body": { "name": "a" }, "headers": { "Content-Type": "text/plain" } }, "response": { "status": 415 } }]
            """)
        #expect(messages(set) == [
            "/cases/1/request/headers/Content-Type case 'plain' sends its body as 'text/plain'; the endpoint takes 'application/json; charset=utf-8' (a case that expects a 4xx may send another on purpose)"
        ])
    }

    @Test func aContentTypeThatIsNoMediaTypeIsAnError() {
        let set = Self.load(endpoint: #", "contentType": "json""#, cases: #"[{ "name": "ok", "response": { "status": 201 } }]"#)
        #expect(messages(set) == ["/request/contentType 'contentType' must be a media type such as 'application/json', found \"json\""])
    }

    @Test func theCaseSchemaStillHoldsBesideTheEndpoints() {
        let set = Self.load(endpoint: Self.schema, cases: """
            [{ "name": "cheap", "request": { "body": { "name": "a", "price": 50 }, "schema": { "properties": { "price": { "maximum": 10 } } } }, "response": { "status": 201 } }]
            """)
        #expect(messages(set).count == 1 && messages(set)[0].hasPrefix("/cases/0/request/body/price "), "\(messages(set))")
    }
}
