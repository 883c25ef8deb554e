import ContractJSON
import ContractSchema
import Foundation
import TestSupport
import Testing

@testable import ContractModel

/// `values` and captures written imperfectly: each mistake gives one error at its place, and the
/// format's schema for editors refuses what lint refuses and accepts what it accepts.
struct FlowFormatAttackTests {
    static func caseText(_ response: String, capture: String = #"{ "madeId": "/id" }"#) -> String {
        """
        { "name": "made", "setup": [ { "name": "make", "request": { "method": "POST", "path": "/things" }, "capture": { "itemId": "/id", "etag": { "header": "ETag" } } } ],
          "capture": \(capture), "response": \(response) }
        """
    }

    static func load(_ response: String, capture: String = #"{ "madeId": "/id" }"#) -> ContractSet {
        TeardownFormatTests.load(caseText(response, capture: capture))
    }

    /// The whole contract document `load` reads, for the format's schema.
    static func document(_ response: String, capture: String = #"{ "madeId": "/id" }"#) throws -> JSONValue {
        let text = #"{ "id": "one", "request": { "method": "POST", "path": "/things" }, "cases": [ \#(caseText(response, capture: capture)) ] }"#
        return try JSONParser().parse(Array(text.utf8)).value
    }

    static let formatSchema = Result { try JSONSchema(FormatSchemaTests.value("docs/contract-v1.schema.json"), uri: "https://contract.dev/schema/contract-v1.json") }

    /// Mistakes with the one message lint gives and where.
    static let wrong: [(response: String, capture: String, message: String, pointer: String)] = [
        (#"{ "status": 200, "values": { "/at": { "after": "2024-01-01" } } }"#, #"{}"#,
         "'after' must be an RFC 3339 date-time or a number (or hold a placeholder), found '2024-01-01'", "/cases/0/response/values/~1at/after"),
        (#"{ "status": 200, "values": { "/at": { "before": "yesterday" } } }"#, #"{}"#,
         "'before' must be an RFC 3339 date-time or a number (or hold a placeholder), found 'yesterday'", "/cases/0/response/values/~1at/before"),
        (#"{ "status": 200, "values": { "/at": { "after": true } } }"#, #"{}"#, "", "/cases/0/response/values/~1at/after"),
        (#"{ "status": 200, "values": { "/tags": { "someElement": 3 } } }"#, #"{}"#,
         "'someElement' must be an object of JSON Pointers into the element to values or matchers, found 3", "/cases/0/response/values/~1tags/someElement"),
        (#"{ "status": 200, "values": { "/tags": { "someElement": {} } } }"#, #"{}"#, "'someElement' needs at least one value", "/cases/0/response/values/~1tags/someElement"),
        (#"{ "status": 200, "values": { "/a~2": 1 } }"#, #"{}"#, "'/a~2' is not a JSON Pointer", "/cases/0/response/values/~1a~02"),
        (#"{ "status": 200, "empty": true, "values": { "/id": 1 } }"#, #"{}"#, "'values' reads a JSON body", "/cases/0/response/values"),
        (#"{ "status": 200, "binary": { "length": 3 }, "values": { "/id": 1 } }"#, #"{}"#, "'values' reads a JSON body", "/cases/0/response/values"),
        (#"{ "status": 201 }"#, #"{ "x": { "header": "Bad Name" } }"#, "capture 'x': 'Bad Name' is not a header name", "/cases/0/capture/x/header"),
        (#"{ "status": 201 }"#, #"{ "x": { "body": "/a~9" } }"#, "capture 'x' must be a JSON Pointer", "/cases/0/capture/x/body"),
        (#"{ "status": 201 }"#, #"{ "x": { "header": "ETag", "pattern": "[" } }"#, "'pattern' is not a valid ECMA-262", "/cases/0/capture/x/pattern"),
        (#"{ "status": 201 }"#, #"{ "x": "/a~" }"#, "capture 'x' must be a JSON Pointer", "/cases/0/capture/x"),
    ]

    @Test func eachMistakeGivesOneErrorAtItsPlace() throws {
        for (response, capture, message, pointer) in Self.wrong {
            let diagnostics = Self.load(response, capture: capture).diagnostics
            #expect(diagnostics.count == 1, "\(response) \(capture): \(diagnostics.map(\.rendered))")
            #expect(diagnostics.first?.message.hasPrefix(message) == true, "\(response) \(capture): \(diagnostics.map(\.message))")
            #expect(diagnostics.first?.pointer?.description == pointer, "\(response) \(capture): \(diagnostics.map { $0.pointer?.description ?? "-" })")
        }
    }

    @Test func theFormatSchemaRefusesWhatLintRefuses() throws {
        let schema = try Self.formatSchema.get()
        for (response, capture, _, _) in Self.wrong where !response.contains("\"after\": \"") && !response.contains("yesterday") {
            #expect(!schema.validate(try Self.document(response, capture: capture)).isValid, "\(response) \(capture)")
        }
    }

    static let right: [(response: String, capture: String)] = [
        (#"{ "status": 200, "values": { "/at": { "after": "2024-01-01T00:00:00Z" }, "/n": { "before": "1e3" }, "/m": { "after": -0.5 }, "/c": { "after": "${capture:itemId}" } } }"#, #"{}"#),
        (#"{ "status": 200, "values": { "/a~0b~1c": 1, "": { "present": true }, "/t": { "someElement": { "": { "someElement": { "/x": 1 } } } } } }"#, #"{}"#),
        (#"{ "status": 201, "headers": { "ETag": { "differs": "${capture:etag}" } } }"#, #"{ "x": { "header": "x-Item_id.1" }, "y": { "body": "" }, "z": "/a~0~1" }"#),
    ]

    @Test func theFormatSchemaAcceptsWhatLintAccepts() throws {
        let schema = try Self.formatSchema.get()
        for (response, capture) in Self.right {
            #expect(Self.load(response, capture: capture).diagnostics.isEmpty, "\(response): \(Self.load(response, capture: capture).diagnostics.map(\.rendered))")
            let result = schema.validate(try Self.document(response, capture: capture))
            #expect(result.isValid, "\(response) \(capture): \(result.errors)")
        }
    }

    /// A thousand pointers in one `values`, and someElement nested as deep as allowed.
    @Test func largeAndDeepValuesLoad() {
        let many = (0..<1000).map { #""/m\#($0)": \#($0)"# }.joined(separator: ", ")
        #expect(Self.load(#"{ "status": 200, "values": { \#(many) } }"#).diagnostics.isEmpty)
        var nested = #"{ "/x": 1 }"#
        for _ in 0..<16 { nested = #"{ "/a": { "someElement": \#(nested) } }"# }
        #expect(Self.load(#"{ "status": 200, "values": \#(nested) }"#).diagnostics.isEmpty)
        nested = #"{ "/a": { "someElement": \#(nested) } }"#
        #expect(Self.load(#"{ "status": 200, "values": \#(nested) }"#).diagnostics.map(\.message) == ["'someElement' nests more than 16 levels deep"])
    }
}
