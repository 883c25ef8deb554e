import ContractJSON
import Testing

struct JSONParserTests {
    func syntaxError(_ text: String) -> JSONSyntaxError? {
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(text) }
    }

    func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(bytes) }
    }

    @Test func keepsMemberOrder() throws {
        let value = try JSONParser().parse(#"{"b":1,"a":2,"c":3}"#).value
        #expect(value.objectValue?.keys == ["b", "a", "c"])
    }

    @Test func reportsDuplicateKeysAndKeepsTheLastValue() throws {
        let document = try JSONParser().parse("{\n  \"a\": 1,\n  \"b\": {\"x\": 1, \"x\": 2},\n  \"a\": 3\n}")
        #expect(document.value.objectValue?["a"] == 3)
        #expect(document.value.objectValue?.keys == ["a", "b"])
        #expect(document.duplicateKeys.map(\.pointer.description) == ["/b/x", "/a"])
        #expect(document.duplicateKeys.map(\.location.description) == ["3:17", "4:3"])
        #expect(document.duplicateKeys.map(\.firstLocation.description) == ["3:9", "2:3"])
    }

    @Test func locatesEveryValueAndKey() throws {
        let text = """
            {
              "cases": [
                {"name": "é", "status": 200},
                true
              ]
            }
            """
        let document = try JSONParser().parse(text)
        let status = try JSONPointer(parsing: "/cases/0/status")
        #expect(document.location(of: status)?.description == "3:29")
        #expect(document.keyLocation(of: status)?.description == "3:19")
        #expect(document.location(of: try JSONPointer(parsing: "/cases/1"))?.description == "4:5")
        #expect(document.location(of: .root)?.description == "1:1")
        #expect(document.location(of: try JSONPointer(parsing: "/nope")) == nil)
        #expect(document.nearestLocation(of: try JSONPointer(parsing: "/cases/0/missing"))?.description == "3:5")
    }

    @Test(arguments: [
        ("[1,]", "1:4", "expected a value after ',', found ']' (trailing commas are not allowed)"),
        ("{\"a\" 1}", "1:6", "expected ':' after the key 'a', found '1'"),
        ("[1 2]", "1:4", "expected ',' or ']' after an array element, found '2'"),
        ("{\"a\":1,}", "1:8", "expected a string key after ',', found '}' (trailing commas are not allowed)"),
        ("\n\n  [tru]", "3:4", "expected a value, found 'tru'"),
        ("[NaN]", "1:2", "expected a value, found 'NaN'"),
        ("01", "1:1", "numbers must not have leading zeros, found '01'"),
        ("[1.]", "1:4", "expected a digit after the decimal point, found ']'"),
        ("1e", "1:3", "expected a digit in the exponent, found end of input"),
        ("\"abc", "1:1", "unterminated string, expected '\"' before end of input"),
        ("\"a\tb\"", "1:3", "control character U+0009 must be escaped in a string"),
        ("\"\\x\"", "1:2", "invalid escape sequence '\\x', expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"),
        ("\"\\uD800\"", "1:2", "lone surrogate '\\uD800', expected a low surrogate '\\uDC00'...'\\uDFFF' to follow"),
        ("\"\\uDC00\"", "1:2", "lone surrogate '\\uDC00' without a high surrogate before it"),
        ("{} x", "1:4", "unexpected 'x' after the top-level value"),
        ("", "1:1", "expected a value, found end of input"),
        ("[\u{2060}]", "1:2", "expected a value, found '\u{2060}' (U+2060)"),
    ])
    func messagesNameWhatWasExpectedAndFound(_ text: String, _ location: String, _ message: String) {
        let error = syntaxError(text)
        #expect(error?.location.description == location)
        #expect(error?.message == message)
    }

    @Test func rejectsInvalidUTF8WithItsByte() {
        let error = syntaxError([UInt8(ascii: "\""), 0x61, 0xFF, UInt8(ascii: "\"")])
        #expect(error?.message == "invalid UTF-8 byte 0xFF in a string")
        #expect(error?.location.column == 3)
        #expect(syntaxError([UInt8(ascii: "\""), 0xED, 0xA0, 0x80, UInt8(ascii: "\"")]) != nil, "encoded surrogate")
        #expect(syntaxError([UInt8(ascii: "\""), 0xC0, 0xAF, UInt8(ascii: "\"")]) != nil, "overlong form")
    }

    @Test func acceptsEscapedNulAndSurrogatePairs() throws {
        let value = try JSONParser().parse(#"["\u0000", "\uD834\uDD1E", "\u00e9"]"#).value
        #expect(value == ["\u{0}", "𝄞", "é"])
    }

    @Test func rejectsDeepNestingWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = syntaxError(deep)
        #expect(error?.message == "nesting is deeper than 512 levels")
        #expect(throws: Never.self) {
            try JSONParser().parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))
        }
    }

    @Test func parsesAHundredMegabyteString() throws {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000_002)
        bytes[0] = UInt8(ascii: "\"")
        bytes[bytes.count - 1] = UInt8(ascii: "\"")
        let value = try JSONParser(tracksLocations: false).parse(bytes).value
        #expect(value.stringValue?.utf8.count == 100_000_000)
    }

    @Test func toleratesAByteOrderMark() throws {
        let value = try JSONParser().parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)).value
        #expect(value == .object(JSONObject()))
    }

    @Test func objectEqualityIgnoresOrderAndNumbersCompareByValue() throws {
        let left = try JSONParser().parse(#"{"a": 1, "b": [1.0, 2]}"#).value
        let right = try JSONParser().parse(#"{"b": [1, 2.00], "a": 1e0}"#).value
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
    }

    @Test func largeObjectsLookUpByKey() throws {
        let members = (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let object = try #require(try JSONParser().parse("{\(members)}").value.objectValue)
        #expect(object["k57"] == 57)
        #expect(object.position(of: "k99") == 99)
    }
}

/// JSON names are code points: two spellings of "é" are two names, never a duplicate.
struct MemberNameBytesTests {
    @Test func namesEqualOnlyByTheirCodePoints() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let text = "{\"\(composed)\": 1, \"\(decomposed)\": 2}"
        let document = try JSONParser().parse(Array(text.utf8))
        #expect(document.duplicateKeys.isEmpty)
        let object = try #require(document.value.objectValue)
        #expect(object.count == 2)
        #expect(object[composed] == .number(JSONNumber(1)))
        #expect(object[decomposed] == .number(JSONNumber(2)))
        // Past the size where lookups use a hash index, the same.
        var members = (0..<20).map { JSONObject.Member(key: "k\($0)", value: .null) }
        members += [JSONObject.Member(key: composed, value: .bool(true)), JSONObject.Member(key: decomposed, value: .bool(false))]
        let large = JSONObject(members)
        #expect(large.count == 22)
        #expect(large[decomposed] == .bool(false))
    }
}
