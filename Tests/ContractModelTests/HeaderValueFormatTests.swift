import ContractJSON
import Testing

@testable import ContractModel

/// A header value with a line break would start a header of its own: HTTP libraries refuse it,
/// and `contract serve` answered nothing for such a fixture while its log said 200. Lint says so
/// where the value is written, for request headers and for a response's exact values.
struct HeaderValueFormatTests {
    @Test(arguments: [
        (#""request": { "headers": { "X-A": "a\r\nSet-Cookie: s=1" } }, "response": { "status": 200 }"#, "/cases/0/request/headers/X-A", "\\u{D}"),
        (#""response": { "status": 200, "headers": { "X-A": "a\nb" } }"#, "/cases/0/response/headers/X-A", "\\u{A}"),
        (#""response": { "status": 200, "headers": { "X-A": { "equals": "a\u0000b" } } }"#, "/cases/0/response/headers/X-A/equals", "\\u{0}"),
        (#""response": { "status": 200, "headers": { "X-A": { "differs": "a\u007Fb" } } }"#, "/cases/0/response/headers/X-A/differs", "\\u{7F}"),
    ])
    func aLineBreakOrAControlInAHeaderValueIsAnError(body: String, pointer: String, shown: String) {
        let set = TeardownFormatTests.load(#"{ "name": "ok", \#(body) }"#)
        let errors = set.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.message) == [
            "header 'X-A': a header value cannot hold a line break or a control character (RFC 9110 §5.5), found \(shown)"
        ])
        #expect(errors.first?.pointer?.description == pointer)
    }

    @Test func aTabAndAnyVisibleCharacterAreFine() {
        let set = TeardownFormatTests.load(#"{ "name": "ok", "request": { "headers": { "X-A": "a\tb é ${env:TOKEN}" } }, "response": { "status": 200, "headers": { "X-B": "c\td" } } }"#)
        #expect(set.diagnostics.filter { $0.severity == .error }.isEmpty, "\(set.diagnostics.map(\.message))")
    }
}
