import ContractJSON
import Testing

@testable import ContractModel

/// The format of teardown steps, a case's own captures and `${unique:…}`: what loads, what each
/// step may read, and the errors lint gives for the rest.
struct TeardownFormatTests {
    static func load(_ testCase: String) -> ContractSet {
        let text = """
            { "id": "one", "request": { "method": "POST", "path": "/things" }, "cases": [ \(testCase) ] }
            """
        return ContractLoader.load(files: [SourceFile(path: "c/one.json", relativePath: "one.json", bytes: Array(text.utf8))], directory: "c")
    }

    @Test func aCaseWithItsCaptureAndTeardownLoads() throws {
        let set = Self.load("""
            { "name": "created",
              "setup": [ { "name": "parent", "request": { "method": "PUT", "path": "/shelves/{id}", "pathParams": { "id": "${unique:shelf}" } } } ],
              "request": { "body": { "shelf": "${unique:shelf}", "name": "lamp-${unique:name}" } },
              "response": { "status": 201 },
              "capture": { "thingId": "/id" },
              "teardown": [
                { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${capture:thingId}" } } },
                { "name": "remove-parent", "request": { "method": "DELETE", "path": "/shelves/{id}", "pathParams": { "id": "${unique:shelf}" } }, "status": 204 }
              ] }
            """)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics.map(\.rendered))")
        let testCase = try #require(set.contracts.first?.cases.first)
        #expect(testCase.captures == [SetupStep.Capture(variable: "thingId", pointer: try JSONPointer(parsing: "/id"))])
        #expect(testCase.teardown.map(\.name) == ["remove", "remove-parent"])
        #expect(testCase.teardown[0].status == SetupStep.teardownStatus, "the default: 2XX, 404 or 410")
        #expect(testCase.teardown[0].status.description == "2XX, 404 or 410")
        #expect(testCase.teardown[1].status == StatusExpectation([.code(204)]))
        #expect(testCase.setup[0].request.pathParams["id"]?.uniqueNames == ["shelf"])
    }

    @Test func aTeardownStepReadsOnlyWhatWasCapturedBeforeIt() {
        let set = Self.load("""
            { "name": "created", "response": { "status": 201 },
              "teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${capture:thingID}" } } } ],
              "capture": { "thingId": "/id" } }
            """)
        #expect(set.diagnostics.map(\.message) == [
            "'${capture:thingID}' is not captured by any earlier setup step of teardown step 'remove', did you mean 'thingId'?"
        ])
    }

    @Test func theCaseItselfCannotReadItsOwnCapture() {
        let set = Self.load("""
            { "name": "created", "request": { "query": { "id": "${capture:thingId}" } }, "response": { "status": 201 }, "capture": { "thingId": "/id" } }
            """)
        #expect(set.diagnostics.map(\.message) == [
            "'${capture:thingId}' is not captured by any earlier setup step of case 'created' (no earlier setup step captures anything)"
        ])
    }

    @Test func teardownStepsAreCheckedAsSetupStepsAre() {
        let set = Self.load("""
            { "name": "created", "response": { "status": 201 },
              "teardown": [
                { "name": "remove", "request": { "method": "DELETE", "path": "/things" } },
                { "name": "remove", "request": { "method": "DELETE", "path": "/things" }, "retry": true }
              ] }
            """)
        let messages = set.diagnostics.map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("duplicate teardown step name 'remove'") })
        #expect(messages.contains { $0.contains("'retry'") })
    }
}

/// What lint can know of a request body before it is sent: a `${unique:…}` is checked as the 12
/// letters and digits it always is; a lone `${capture:…}` may be any value; text around an
/// `${env:…}` or a capture is text of unknown content. A response example is what it says.
struct SentValueLintTests {
    static func messages(_ contract: String) -> [String] {
        let set = ContractLoader.load(files: [SourceFile(path: "c/one.json", relativePath: "one.json", bytes: Array(contract.utf8))], directory: "c")
        return set.diagnostics.map { "\($0.pointer?.description ?? "") \($0.message)" }
    }

    @Test func placeholdersHideOnlyWhatTheyLeaveUnknown() {
        let messages = Self.messages("""
            { "id": "one", "request": { "method": "POST", "path": "/things",
                "schema": { "type": "object", "properties": {
                  "count": { "type": "integer" }, "name": { "type": "string", "maxLength": 5 }, "code": { "type": "string", "pattern": "^[0-9]+$" },
                  "kind": { "enum": ["a", "b"] }, "id": { "type": "string", "format": "uuid" }, "fine": { "type": "string", "maxLength": 20 },
                  "ref": { "type": "integer" }, "label": { "type": "string", "maxLength": 2 }, "number": { "type": "integer" } } } },
              "cases": [ { "name": "created",
                "setup": [ { "name": "make", "request": { "method": "POST", "path": "/refs" }, "capture": { "x": "/id" } } ],
                "request": { "body": { "count": "${unique:c}", "name": "${unique:n}", "code": "x${unique:d}", "kind": "k-${unique:k}",
                  "id": "${unique:i}", "fine": "lamp-${unique:f}", "ref": "${capture:x}", "label": "a-${env:X}", "number": "${env:N}" } },
                "response": { "status": 201 } } ] }
            """)
        let pointers = Set(messages.map { String($0.prefix { $0 != " " }) })
        #expect(pointers == [
            "/cases/0/request/body/count", "/cases/0/request/body/name", "/cases/0/request/body/code", "/cases/0/request/body/kind",
            "/cases/0/request/body/id", "/cases/0/request/body/number",
        ], "\(messages)")
    }

    @Test func aResponseExampleIsCheckedAsWritten() {
        let messages = Self.messages("""
            { "id": "one", "request": { "method": "GET", "path": "/things" },
              "cases": [ { "name": "ok", "response": { "status": 200, "schema": { "type": "object", "properties": { "id": { "type": "integer" } } },
                "example": { "id": "${unique:x}" } } } ] }
            """)
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.hasPrefix("/cases/0/response/example/id ") == true, "\(messages)")
    }
}
