import ContractJSON
import Testing

/// Values in messages are cut short, and columns on long lines are counted from a nearby mark.
struct MessageTextTests {
    @Test func shortTextIsKeptAndLongTextIsCutAfterFortyScalars() {
        #expect(MessageText.clipped("name") == "name")
        #expect(MessageText.clipped(String(repeating: "a", count: 40)) == String(repeating: "a", count: 40))
        #expect(MessageText.clipped(String(repeating: "a", count: 41)) == String(repeating: "a", count: 40) + "…")
        // One character of many combining marks is still cut: lengths count scalars.
        let stacked = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(MessageText.clipped(stacked).unicodeScalars.count == 41)
    }

    @Test func aLongNumberKeepsItsExponent() throws {
        let digits = String(repeating: "7", count: 1000)
        let number = try #require(JSONNumber(digits))
        #expect(MessageText.clipped(number) == "7." + String(repeating: "7", count: 38) + "…e+999")
        #expect(MessageText.clipped(JSONNumber(12)) == "12")
    }

    @Test func oneLineJoinsLinesAndCutsLongWords() {
        #expect(MessageText.oneLine("a\n\n  b\tc", to: 100) == "a b c")
        #expect(MessageText.oneLine("key\u{0}x") == "key x")
        // A bidirectional override would make the rest of the line read backwards.
        #expect(MessageText.oneLine("k\u{202E}x\u{2066}y\u{200F}") == "k x y ")
        let long = String(repeating: "x", count: 1000)
        #expect(MessageText.oneLine("found \(long) here", to: 100, wordLength: 5) == "found xxxxx… here")
        #expect(MessageText.oneLine(long, to: 10) == "xxxxxxxxxx…")
    }

    /// The line table marks a column every few kilobytes of a long line; a location counted from
    /// a mark must be the one counted from the start of the line.
    @Test func columnsOnALongLineMatchCountingFromTheLineStart() {
        var bytes = Array("{\"a\": 1}\n".utf8)
        for index in 0..<20_000 { bytes += Array((index % 7 == 0 ? "é€𝄞" : "x").utf8) }
        bytes += Array("\nlast".utf8)
        let indexed = SourceText(bytes, indexLines: true)
        let scanned = SourceText(bytes, indexLines: false)
        for offset in stride(from: 0, through: bytes.count, by: 997) + [4096 + 9, 8192 + 9, bytes.count - 2] {
            #expect(indexed.location(ofOffset: offset) == scanned.location(ofOffset: offset), "offset \(offset)")
        }
    }
}
