import ContractJSON
import Testing

@testable import ContractModel

/// The format of captures from headers and parts of texts: what loads, and the error lint gives
/// for each way to get one wrong.
struct CaptureSourceFormatTests {
    static func load(_ capture: String) -> ContractSet {
        TeardownFormatTests.load("""
            { "name": "made", "setup": [ { "name": "make", "request": { "method": "POST", "path": "/things" }, "capture": \(capture) } ],
              "response": { "status": 201 } }
            """)
    }

    @Test func headersAndPartsOfTextsLoad() throws {
        let set = Self.load("""
            { "id": "/id", "etag": { "header": "ETag" }, "made": { "header": "Location", "pattern": "/things/([0-9]+)$" },
              "cursor": { "body": "/links/next", "pattern": "cursor=([^&]+)" } }
            """)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics.map(\.rendered))")
        let captures = try #require(set.contracts.first?.cases.first?.setup.first?.captures)
        #expect(captures == [
            SetupStep.Capture(variable: "id", pointer: try JSONPointer(parsing: "/id")),
            SetupStep.Capture(variable: "etag", source: .header("ETag")),
            SetupStep.Capture(variable: "made", source: .header("Location"), pattern: "/things/([0-9]+)$"),
            SetupStep.Capture(variable: "cursor", source: .body(try JSONPointer(parsing: "/links/next")), pattern: "cursor=([^&]+)"),
        ])
        #expect(captures[2].place == "header 'Location' (pattern '/things/([0-9]+)$')")
    }

    @Test func eachWrongCaptureIsNamed() {
        let cases: [(String, String)] = [
            (#"{ "x": { "body": "/a", "header": "ETag" } }"#, "capture 'x' needs exactly one of 'body' (a JSON Pointer) and 'header' (a header's name)"),
            (#"{ "x": { "pattern": "a" } }"#, "capture 'x' needs exactly one of 'body' (a JSON Pointer) and 'header' (a header's name)"),
            (#"{ "x": { "header": "Bad Name" } }"#, "capture 'x': 'Bad Name' is not a header name"),
            (#"{ "x": { "body": "id" } }"#, #"capture 'x' must be a JSON Pointer into the response body such as "/id", found "id""#),
            (#"{ "x": { "header": "ETag", "pattern": "(" } }"#, "'pattern' is not a valid ECMA-262 regular expression: unterminated group at offset 0"),
            (#"{ "x": { "header": "ETag", "patern": "a" } }"#, "unknown key 'patern' in capture 'x', did you mean 'pattern'?"),
        ]
        for (capture, message) in cases {
            let messages = Self.load(capture).diagnostics.map(\.message)
            #expect(messages == [message], "\(capture)")
        }
    }
}
