import ContractJSON
import Testing

@testable import ContractModel

/// The format of a response's `values` and of header `differs`: what loads, and the error lint
/// gives for each way to get one wrong.
struct ValuesFormatTests {
    static func load(_ response: String, capture: String = #"{ "madeId": "/id" }"#) -> ContractSet {
        TeardownFormatTests.load("""
            { "name": "made", "setup": [ { "name": "make", "request": { "method": "POST", "path": "/things" }, "capture": { "itemId": "/id", "etag": { "header": "ETag" } } } ],
              "capture": \(capture), "response": \(response) }
            """)
    }

    @Test func everyRelationLoads() throws {
        let set = Self.load("""
            { "status": 201, "headers": { "ETag": { "differs": "${capture:etag}" }, "Location": { "pattern": "/things/${capture:madeId}$" } },
              "values": { "/id": "${capture:itemId}", "/n": 3, "/name": { "equals": "a" }, "/etag": { "differs": "${capture:etag}" },
                          "/self": { "pattern": "^/things/${capture:madeId}$" }, "/at": { "after": "2026-01-01T00:00:00Z" }, "/count": { "before": 10 },
                          "/tags": { "someElement": { "": "new" } }, "/gone": { "present": false } } }
            """)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics.map(\.rendered))")
        let response = try #require(set.contracts.first?.cases.first?.response)
        #expect(response.values.map(\.keyword) == ["equals", "equals", "equals", "differs", "pattern", "after", "before", "someElement", "present"])
        #expect(response.values.first?.relation == .equals(.string("${capture:itemId}")))
        #expect(response.headers.first?.matcher == .differs(try TemplateString(parsing: "${capture:etag}")))
        #expect(response.values[7].relation == .someElement([ValueExpectation(pointer: .root, relation: .equals(.string("new")))]))
    }

    @Test func eachWrongValueIsNamed() {
        let cases: [(String, String)] = [
            (#"{ "status": 200, "values": { "id": 1 } }"#, #"'id' is not a JSON Pointer into the body such as "/id""#),
            (#"{ "status": 200, "values": { "/id": { "equals": 1, "differs": 2 } } }"#,
             "the matcher of '/id' needs exactly one of 'equals', 'differs', 'pattern', 'after', 'before', 'someElement', 'present', found 'equals' and 'differs'"),
            (#"{ "status": 200, "values": { "/id": { "same": 1 } } }"#, "unknown key 'same' in the matcher of '/id'"),
            (#"{ "status": 200, "values": { "/id": { "pattern": "(${capture:itemId}" } } }"#,
             "'pattern' is not a valid ECMA-262 regular expression (with each placeholder as a text): unterminated group at offset 0"),
            (#"{ "status": 200, "values": { "/id": "${capture:nothing}" } }"#,
             "'${capture:nothing}' is not captured by any earlier setup step of the response of case 'made'"),
            (#"{ "status": 200, "values": { "/id": { "pattern": "^${capture:nothing}$" } } }"#,
             "'${capture:nothing}' is not captured by any earlier setup step of the response of case 'made'"),
            (#"{ "status": 200, "text": "ok", "values": { "/id": 1 } }"#, "'values' reads a JSON body, and this response's body is 'text'"),
            (#"{ "status": 200, "values": { "/tags": { "someElement": {} } } }"#, "'someElement' needs at least one value to hold each element to"),
            (#"{ "status": 200, "values": [] }"#, "'values' must be an object of JSON Pointers into the body to values or matchers, found an array"),
        ]
        for (response, message) in cases {
            let messages = Self.load(response).diagnostics.map(\.message)
            #expect(messages.count == 1 && messages.first?.hasPrefix(message) == true, "\(response): \(messages)")
        }
    }
}
