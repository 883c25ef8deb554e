import ContractModel
import Testing

/// The loader parses a text with placeholders once per document and shares it with every place
/// that writes the same text. The same means the same bytes: `é` as one code point and as `e`
/// with a combining accent are two texts, and each place must send what it wrote.
struct ParsedTemplateSharingTests {
    @Test func textsThatDifferOnlyInTheirUnicodeFormAreNotShared() throws {
        let composed = "caf\u{E9} ${env:TOKEN}"
        let decomposed = "cafe\u{301} ${env:TOKEN}"
        let text = """
            {"id": "menu.get", "request": {"method": "GET", "path": "/menu"}, "cases": [
              {"name": "a", "request": {"headers": {"X-Menu": "\(composed)"}}, "response": {"status": 200}},
              {"name": "b", "request": {"headers": {"X-Menu": "\(decomposed)"}}, "response": {"status": 200}},
              {"name": "c", "request": {"headers": {"X-Menu": "\(composed)"}}, "response": {"status": 200}}
            ]}
            """
        let set = ContractLoader.load(files: [SourceFile(path: "c/menu.json", relativePath: "menu.json", bytes: Array(text.utf8))], directory: "c")
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
        let contract = try #require(set.contracts.first)
        let written = contract.cases.map { testCase -> [UInt8] in
            guard case .literal(let literal)? = testCase.request.headers.first?.value?.segments.first else { return [] }
            return Array(literal.utf8)
        }
        #expect(written == [Array("caf\u{E9} ".utf8), Array("cafe\u{301} ".utf8), Array("caf\u{E9} ".utf8)])
    }
}
