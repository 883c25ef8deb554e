import ContractJSON
import ContractSchema
import Testing

@testable import ContractModel

/// `url`: a request that follows a link an earlier response gave. Written wrongly, one error at
/// its place; the format's schema for editors agrees with lint.
struct FollowedURLFormatTests {
    static let pages = #"{ "name": "first", "request": { "method": "GET", "path": "/things" }, "capture": { "next": "/next" } }"#

    static func contract(_ testCase: String, path: String = "/things") -> String {
        #"{ "id": "one", "request": { "method": "GET", "path": "\#(path)" }, "cases": [ \#(testCase) ] }"#
    }

    static func load(_ testCase: String, path: String = "/things") -> ContractSet {
        let text = contract(testCase, path: path)
        return ContractLoader.load(files: [SourceFile(path: "c/one.json", relativePath: "one.json", bytes: Array(text.utf8))], directory: "c")
    }

    @Test func aCaseAndItsStepsFollowCapturedLinks() throws {
        let set = Self.load("""
            { "name": "second", "setup": [ \(Self.pages),
                { "name": "third", "request": { "method": "GET", "url": "${capture:next}", "query": { "limit": 2 } }, "capture": { "last": "/next" } } ],
              "request": { "url": "${capture:last}" }, "response": { "status": 200 } }
            """, path: "/things/{id}")
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics.map(\.rendered))")
        let testCase = try #require(set.contracts.first?.cases.first)
        #expect(testCase.request.url?.capturedVariables == ["last"])
        #expect(testCase.setup[1].request.url?.capturedVariables == ["next"])
        #expect(testCase.setup[1].path == SetupStep.followedPath)
        #expect(testCase.request.capturedVariables == ["last"])
    }

    static let wrong: [(testCase: String, message: String, pointer: String)] = [
        (#"{ "name": "c", "request": { "url": "/things?page=2" }, "response": { "status": 200 } }"#,
         "'url' follows a link an earlier response gave, so it reads a capture", "/cases/0/request/url"),
        (#"{ "name": "c", "request": { "url": "${capture:next}" }, "response": { "status": 200 } }"#,
         "'${capture:next}' is not captured by any earlier setup step", "/cases/0/request/url"),
        (#"{ "name": "c", "setup": [ \#(pages) ], "request": { "url": "${capture:next}", "pathParams": { "id": 1 } }, "response": { "status": 200 } }"#,
         "a request that follows a 'url' has no 'pathParams'", "/cases/0/request/pathParams"),
        (#"{ "name": "c", "setup": [ \#(pages), { "name": "s", "request": { "method": "GET" } } ], "response": { "status": 200 } }"#,
         "the request of setup step 's' has no 'path' (or 'url'", "/cases/0/setup/1/request"),
        (#"{ "name": "c", "setup": [ \#(pages), { "name": "s", "request": { "method": "GET", "path": "/x", "url": "${capture:next}" } } ], "response": { "status": 200 } }"#,
         "the request of setup step 's' has both 'path' and 'url'", "/cases/0/setup/1/request/url"),
        (#"{ "name": "c", "setup": [ \#(pages) ], "request": { "url": 3 }, "response": { "status": 200 } }"#,
         "'url' must be a string", "/cases/0/request/url"),
    ]

    @Test func eachMistakeGivesOneErrorAtItsPlace() {
        for (testCase, message, pointer) in Self.wrong {
            let diagnostics = Self.load(testCase).diagnostics
            #expect(diagnostics.count == 1, "\(testCase): \(diagnostics.map(\.rendered))")
            #expect(diagnostics.first?.message.hasPrefix(message) == true, "\(testCase): \(diagnostics.map(\.message))")
            #expect(diagnostics.first?.pointer?.description == pointer, "\(testCase): \(diagnostics.map { $0.pointer?.description ?? "-" })")
        }
    }

    @Test func theFormatSchemaAgreesWithLint() throws {
        let schema = try FormatSchemaTests.formatSchema.get()
        func document(_ testCase: String, path: String = "/things") throws -> JSONValue {
            try JSONParser().parse(Array(Self.contract(testCase, path: path).utf8)).value
        }
        // What lint refuses for its shape (a capture no step made is lint's alone).
        for (testCase, _, _) in Self.wrong where !testCase.contains(#""url": "${capture:next}" }, "response""#) {
            #expect(!schema.validate(try document(testCase)).isValid, "\(testCase)")
        }
        let right = """
            { "name": "c", "setup": [ \(Self.pages), { "name": "s", "request": { "method": "GET", "url": "${capture:next}" } } ],
              "request": { "url": "${capture:next}", "query": { "limit": 2 } }, "response": { "status": 200 } }
            """
        #expect(Self.load(right).diagnostics.isEmpty)
        let result = schema.validate(try document(right))
        #expect(result.isValid, "\(result.errors)")
    }
}
