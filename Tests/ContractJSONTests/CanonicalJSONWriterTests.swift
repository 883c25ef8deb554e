import ContractJSON
import Testing

struct CanonicalJSONWriterTests {
    @Test func sortsKeysAndFormatsStably() throws {
        let value = try JSONParser().parse(#"{"b": [1.50, true, null], "a": {"é": "x", "z": 1E2, "A": -0.0}, "": "\u001f\n\"/"}"#).value
        let compact = CanonicalJSONWriter(style: .compact).string(value)
        #expect(compact == #"{"":"\u001f\n\"/","a":{"A":0,"z":100,"é":"x"},"b":[1.5,true,null]}"#)
        let pretty = CanonicalJSONWriter().string(value)
        #expect(pretty == """
            {
              "": "\\u001f\\n\\"/",
              "a": {
                "A": 0,
                "z": 100,
                "é": "x"
              },
              "b": [
                1.5,
                true,
                null
              ]
            }

            """)
    }

    @Test func sortsByUTF16CodeUnits() {
        // U+FF61 sorts after U+1F600 in UTF-16 (0xFF61 > 0xD83D) although not in scalar order.
        let value: JSONValue = ["\u{FF61}": 1, "\u{1F600}": 2, "\u{80}": 3]
        #expect(CanonicalJSONWriter(style: .compact).string(value) == "{\"\u{80}\":3,\"\u{1F600}\":2,\"\u{FF61}\":1}")
    }

    @Test func roundTripsThroughTheParser() throws {
        let text = #"{"big":123456789012345678901234567890,"list":[[],{}],"small":1e-7,"s":"\ud834\udd1e"}"#
        let value = try JSONParser().parse(text).value
        let written = CanonicalJSONWriter(style: .compact).string(value)
        #expect(try JSONParser().parse(written).value == value)
        #expect(CanonicalJSONWriter(style: .compact).string(try JSONParser().parse(written).value) == written)
    }
}
