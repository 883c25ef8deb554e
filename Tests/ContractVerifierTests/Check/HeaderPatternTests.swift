import ContractSchema
import Testing

@testable import ContractVerifier

/// A header pattern that is plain text is matched by comparing bytes (``LiteralPattern``): its
/// verdict must be the regex engine's on every value, and anything that is syntax must stay the
/// engine's.
struct HeaderPatternTests {
    static let values = [
        "application/json", "application/json; charset=utf-8", "Application/JSON", "text/html", "", "json",
        "x-application/json", "application/jso", "caf\u{E9} application/json",
    ]

    @Test(arguments: ["^application/json", "application/json", "json", "^json", "charset=utf-8", "^text/html; charset=utf-8"])
    func literalAgreesWithTheEngine(_ pattern: String) throws {
        let literal = try #require(LiteralPattern(pattern))
        let regex = try ECMARegex(pattern)
        for value in Self.values {
            let bytes = Array(value.utf8)
            let byLiteral = bytes.withUnsafeBufferPointer(literal.matches)
            #expect(byLiteral == regex.matches(value), "\(pattern) on \(value)")
        }
    }

    @Test(arguments: ["^application/.*json", "json$", "^a.b", "(json)", "[j]son", "json+", "^", "", "a|b", "\\d", "x{2}", "é"])
    func syntaxIsLeftToTheEngine(_ pattern: String) {
        #expect(LiteralPattern(pattern) == nil)
    }

    @Test func aPatternThatIsNoLiteralUsesTheEngine() throws {
        let pattern = HeaderPattern(regex: try ECMARegex("^application/.*json$"), literal: nil)
        let matches = { (value: String) in Array(value.utf8).withUnsafeBufferPointer(pattern.matches) }
        #expect(matches("application/problem+json"))
        #expect(!matches("application/json; charset=utf-8"))
    }
}
