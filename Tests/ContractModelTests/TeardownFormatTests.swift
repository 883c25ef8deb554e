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
