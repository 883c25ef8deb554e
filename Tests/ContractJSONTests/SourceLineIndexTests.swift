import ContractJSON
import Testing

/// A document that keeps only its line index (`JSONParser(keepsText: false)`) places every offset
/// at the line and column the text itself gives.
struct SourceLineIndexTests {
    /// Texts that cross the index's edges: no newline, a line longer than a one-byte gap, more
    /// lines than a checkpoint's stride, non-ASCII scalars of two to four bytes, CR LF, a last
    /// line without a newline, and a text that is only newlines.
    static let texts: [String] = [
        "",
        "{}",
        "\n",
        String(repeating: "\n", count: 200),
        "{\n \"a\": 1,\n \"b\": [true, null]\n}\n",
        "{\"long\": \"" + String(repeating: "x", count: 300) + "\"}\n{\n}",
        (0..<300).map { "line \($0)" + String(repeating: " ", count: $0 % 7) }.joined(separator: "\n"),
        "{\r\n \"é\": \"日本\",\r\n \"emoji\": \"😀x\"\n}",
        (0..<150).map { $0 % 10 == 0 ? "\"ü\(String(repeating: "y", count: $0 * 3))\"" : "\"x\"" }.joined(separator: ",\n"),
    ]

    @Test(arguments: texts) func everyOffsetHasTheTextsLineAndColumn(text: String) {
        let bytes = Array(text.utf8)
        let fromText = SourceText(bytes)
        let fromIndex = SourceText(lineIndexOf: bytes)
        for offset in -2...(bytes.count + 2) {
            #expect(fromIndex.location(ofOffset: offset) == fromText.location(ofOffset: offset), "offset \(offset)")
        }
    }

    @Test func theIndexKeepsNoTextUnlessMostOfItIsNotASCII() {
        // One non-ASCII scalar in a hundred lines: its continuation byte is indexed.
        let ascii = Array((0..<100).map { "\"name \($0)\": \"\($0 == 50 ? "é" : "e")\"" }.joined(separator: ",\n").utf8)
        #expect(SourceText(lineIndexOf: ascii).bytes.isEmpty)
        // Two continuation bytes in every three: the text is the smaller way to keep it.
        let japanese = Array(String(repeating: "日本語\n", count: 100).utf8)
        let kept = SourceText(lineIndexOf: japanese)
        #expect(kept.bytes == japanese)
        #expect(kept.location(ofOffset: 13) == SourceText(japanese).location(ofOffset: 13))
    }

    @Test func aParsedDocumentWithoutItsTextLocatesAsOneWithIt() throws {
        let text = "{\n \"cases\": [\n  {\"name\": \"ü\", \"response\": {\"status\": 200}},\n  {\"name\": \"b\"}\n ]\n}"
        let kept = try JSONParser(sharesValues: true).parse(text)
        let indexed = try JSONParser(sharesValues: true, keepsText: false).parse(text)
        #expect(indexed.source.bytes.isEmpty)
        for pointer in ["", "/cases", "/cases/0/name", "/cases/0/response/status", "/cases/1", "/cases/1/name", "/cases/2"] {
            let parsed = try JSONPointer(parsing: pointer)
            #expect(indexed.location(of: parsed) == kept.location(of: parsed), "\(pointer)")
            #expect(indexed.keyLocation(of: parsed) == kept.keyLocation(of: parsed), "\(pointer)")
            #expect(indexed.nearestLocation(of: parsed) == kept.nearestLocation(of: parsed), "\(pointer)")
        }
    }
}
