import ContractJSON
import Testing

/// The parser's fast paths (numbers gathered while read, strings scanned a word at a time, lines
/// counted from marks, objects indexed once large) must give exactly what the general paths give.
struct JSONParserFastPathTests {
    func number(_ text: String) throws -> JSONNumber {
        try #require(try JSONParser().parse(text).value.numberValue)
    }

    /// Past 18 significant digits a number takes the general path; padded with zeros it is the
    /// same value, so it must be the same number, hash and text.
    @Test(arguments: ["0", "-0", "1.5", "-2288.82", "0.000123", "123456789012345678", "1e18", "1e19", "-9.5e-30", "12.5e2", "7E-3", "100"])
    func numbersAgreeAcrossPaths(_ text: String) throws {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        let exponent = text.dropFirst(mantissa.count)
        let padded = mantissa + (mantissa.contains(".") ? "" : ".") + String(repeating: "0", count: 20) + exponent
        let fast = try number(text)
        let general = try number(String(padded))
        #expect(fast == general)
        #expect(fast.hashValue == general.hashValue)
        #expect(fast.description == general.description)
        #expect(fast.isInteger == general.isInteger)
    }

    @Test(arguments: ["0.1", "2288.82", "-1.709", "3.801e-5", "123456789.123456789", "9007199254740993", "1e-22", "4.9e-324", "1.7976931348623157e308"])
    func doublesAreTheNearest(_ text: String) throws {
        #expect(try number(text).doubleValue == Double(text))
    }

    @Test func scaledFormsCompareExactly() throws {
        #expect(try number("1.25") < number("1.2500000000000000000001"))
        #expect(try number("-0.5") < number("-0.49"))
        #expect(try number("1e19") > number("9223372036854775807"))
        #expect(try number("1e19").isInteger)
        #expect(try number("1e19").int64Value == nil)
        #expect(try number("1.5").scaled! == (15, -1))
    }

    /// Strings long enough to be scanned word by word, with each kind of byte that stops a scan
    /// at every position of a word.
    @Test func stringsStopAtEveryPosition() throws {
        for position in 0..<17 {
            let prefix = String(repeating: "a", count: position)
            for stop in ["\\n", "\\\"", "é", "\\u00e9", "𝄞"] {
                let text = "\"\(prefix)\(stop)\(prefix)\""
                let value = try JSONParser().parse(text).value.stringValue
                let expected = try #require(try JSONParser().parse("[\(text)]").value.arrayValue?.first?.stringValue)
                #expect(value == expected)
                #expect(value?.hasPrefix(prefix) == true)
            }
            let control = Array("\"\(prefix)".utf8) + [0x01] + Array("\"".utf8)
            #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(control) }
            let invalid = Array("\"\(prefix)".utf8) + [0xFF] + Array("aaaaaaaaaa\"".utf8)
            let error = #expect(throws: JSONSyntaxError.self) { try JSONParser().parseTape(invalid) }
            #expect(error?.location.offset == position + 1)
        }
    }

    /// Lines and columns counted from marks equal those counted from the start, at every offset,
    /// across mark boundaries, long lines and multi-byte characters.
    @Test func locationsMatchACountFromTheStart() {
        var text = ""
        for line in 0..<120 {
            text += String(repeating: line % 3 == 0 ? "é" : "ab", count: line * 7) + (line % 5 == 0 ? "𝄞" : "") + "\n"
        }
        let bytes = Array(text.utf8)
        let indexed = SourceText(bytes)
        let plain = SourceText(bytes, indexLines: false)
        var line = 1
        var column = 1
        for offset in 0...bytes.count {
            if offset % 97 == 0 || offset == bytes.count {
                #expect(indexed.location(ofOffset: offset) == SourceLocation(line: line, column: column, offset: offset))
                #expect(plain.location(ofOffset: offset) == SourceLocation(line: line, column: column, offset: offset))
            }
            guard offset < bytes.count else { break }
            if bytes[offset] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[offset] & 0xC0 != 0x80 {
                column += 1
            }
        }
        #expect(indexed.location(ofOffset: bytes.count + 5).offset == bytes.count)
    }

    /// Objects past the size where lookups use an index: repeated keys are still found, reported
    /// and folded, and every member is located.
    @Test func largeObjectsFoldRepeatedKeys() throws {
        let members = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let text = "[{\(members), \"k3\": \"again\", \"k15\": [true]}]"
        let document = try JSONParser().parse(text)
        let object = try #require(document.value.arrayValue?.first?.objectValue)
        #expect(object.count == 20)
        #expect(object["k3"] == "again")
        #expect(object["k15"] == [true])
        #expect(object.position(of: "k15") == 15)
        #expect(document.duplicateKeys.map(\.pointer.description) == ["/0/k3", "/0/k15"])
        func offset(_ part: String) throws -> Int {
            try #require(text.range(of: part)).lowerBound.utf16Offset(in: text)
        }
        #expect(document.keyLocation(of: try JSONPointer(parsing: "/0/k3"))?.offset == (try offset("\"k3\": \"again\"")))
        #expect(document.location(of: try JSONPointer(parsing: "/0/k3"))?.offset == (try offset("\"again\"")))
        #expect(document.location(of: try JSONPointer(parsing: "/0/k19"))?.offset == (try offset("\"k19\"")) + 7)
        #expect(document.duplicateKeys.first?.firstLocation.offset == (try offset("\"k3\": 3")))
    }

    /// The tree-shaped source map is rebuilt from the parser's table as it was.
    @Test func sourceMapMirrorsTheValue() throws {
        let document = try JSONParser().parse(#"{"a": [1, {"b": null}], "c": "d"}"#)
        guard case .object(0, let members)? = document.sourceMap, members.count == 2,
            case .array(6, let elements) = members[0].value, elements.count == 2,
            case .object(10, let inner) = elements[1], inner.first?.keyOffset == 11, members[1].keyOffset == 24
        else {
            Issue.record("unexpected source map: \(String(describing: document.sourceMap))")
            return
        }
        let unmapped = try JSONParser(tracksLocations: false).parse("[1]")
        #expect(unmapped.sourceMap == nil)
        #expect(unmapped.location(of: .root) == nil)
    }

    /// A parser that shares values reads a repeated text once: the value, every location inside
    /// it (shifted to where it repeats), repeated keys and nesting limits stay as without sharing.
    @Test func sharedTextsKeepTheirPlaces() throws {
        let text = """
            [{"b": {"c": [1, "sixteen bytes or more"]}, "d": "sixteen bytes or more"},
              {"b": {"c": [1, "sixteen bytes or more"]}, "d": "sixteen bytes or more"},
             {"x": 1, "x": 2}, {"x": 1, "x": 2}]
            """
        let shared = try JSONParser(sharesValues: true).parse(text)
        let plain = try JSONParser().parse(text)
        #expect(shared.value == plain.value)
        for pointer in ["/1", "/1/b", "/1/b/c", "/1/b/c/1", "/1/d", "/3/x"] {
            let pointer = try JSONPointer(parsing: pointer)
            #expect(shared.location(of: pointer) == plain.location(of: pointer))
            #expect(shared.keyLocation(of: pointer) == plain.keyLocation(of: pointer))
        }
        #expect(shared.location(of: try JSONPointer(parsing: "/1/b/c/1"))?.description == "2:19")
        #expect(shared.duplicateKeys.map(\.pointer.description) == ["/2/x", "/3/x"])
        #expect(shared.duplicateKeys == plain.duplicateKeys)

        // `[[[1]]]` is read first at depths 2 to 4, then repeats at 5 to 7, past the limit.
        let deep = "[[[[1]]], [[[[[[1]]]]]]]"
        #expect(throws: Never.self) { try JSONParser(maxDepth: 6, sharesValues: true).parse("[[[[1]]], [[[[[1]]]]]]") }
        let sharedError = #expect(throws: JSONSyntaxError.self) { try JSONParser(maxDepth: 6, sharesValues: true).parse(deep) }
        let plainError = #expect(throws: JSONSyntaxError.self) { try JSONParser(maxDepth: 6).parse(deep) }
        #expect(sharedError == plainError)
    }

    /// Every value and key of texts that repeat inside texts that repeat (the children of a
    /// repeat found through the list of repeated texts, shifted level by level), of a repeat that
    /// is a repeated key's later value, of empty repeats and of a text repeated many times, is
    /// placed where a parse without sharing places it.
    @Test(arguments: [
        """
        {"a": {"p": [1, 2]}, "list": [{"q": {"p": [1, 2]}, "n": [3, 4]},
           {"q": {"p": [1, 2]}, "n": [3, 4]}, [{"q": {"p": [1, 2]}, "n": [3, 4]}]],
         "z": {"q": {"p": [1, 2]},   "n": [3, 4]}, "y": [{"q": {"p": [1, 2]}, "n": [3, 4]}]}
        """,
        #"{"x": [1, 2], "o": {"a": 0, "a": [1, 2]}, "p": {"a": [1, 2], "a": {"b": [1, 2]}}}"#,
        "[[  ], [  ], {\"e\": [  ]}, [  ]]",
        "[" + Array(repeating: #"{"k": [10, 20], "m": {"k": [10, 20]}}"#, count: 300).joined(separator: ",\n ") + "]",
    ])
    func everyPlaceInRepeatsMatchesAPlainParse(_ text: String) throws {
        let shared = try JSONParser(sharesValues: true).parse(text)
        let plain = try JSONParser().parse(text)
        #expect(shared.value == plain.value)
        #expect(shared.duplicateKeys == plain.duplicateKeys)
        var pointers: [JSONPointer] = []
        func collect(_ value: JSONValue, _ pointer: JSONPointer) {
            pointers.append(pointer)
            switch value {
            case .array(let elements): for (index, element) in elements.enumerated() { collect(element, pointer.appending(index)) }
            case .object(let object): for member in object.members { collect(member.value, pointer.appending(member.key)) }
            default: break
            }
        }
        collect(plain.value, .root)
        for pointer in pointers {
            #expect(shared.location(of: pointer) == plain.location(of: pointer), "\(pointer)")
            #expect(shared.keyLocation(of: pointer) == plain.keyLocation(of: pointer), "\(pointer)")
        }
    }

    /// The table of repeated texts is bounded (32,768 texts): past it, a text is read as any
    /// other, placed where a plain parse places it, and shares nothing; before it, a repeat shares.
    @Test func pastTheTableOfRepeatedTextsATextIsReadAsAnyOther() throws {
        let early = #"{"early": [1, 2]}"#
        let late = #"{"late": [3, 4]}"#
        let distinct = (0..<40_000).map { "\"a text of its own number \($0)\"" }
        let text = "[" + ([early, early] + distinct + [late, late]).joined(separator: ", ") + "]"
        let shared = try JSONParser(sharesValues: true).parse(text)
        let plain = try JSONParser().parse(text)
        let values = try #require(shared.value.arrayValue)
        #expect(values[0].sharesStorage(with: values[1]), "met before the table filled")
        #expect(!values[40_002].sharesStorage(with: values[40_003]), "met after it filled")
        #expect(values[40_002] == values[40_003])
        for pointer in ["/1", "/1/early/1", "/40001", "/40003", "/40003/late/1"] {
            let pointer = try JSONPointer(parsing: pointer)
            #expect(shared.location(of: pointer) == plain.location(of: pointer), "\(pointer)")
            #expect(shared.keyLocation(of: pointer) == plain.keyLocation(of: pointer), "\(pointer)")
        }
    }

    @Test func aRepeatIsReadOnce() throws {
        let shared = try JSONParser(sharesValues: true).parse(#"{"list": [{"q": {"p": [1, 2]}}, {"q": {"p": [1, 2]}}]}"#)
        let list = try #require(shared.value.objectValue?["list"]?.arrayValue)
        #expect(list[0].sharesStorage(with: list[1]), "the repeat is read once, so its children are found through the list")
    }

    /// A repeated text is one stored value, and that is known at once; values stored apart are not
    /// said to share, however equal.
    @Test func repeatedTextsShareStorage() throws {
        let text = #"[{"$ref": "schemas/product.json"}, {"$ref": "schemas/product.json"}, {"$ref":"schemas/product.json"}]"#
        let shared = try #require(try JSONParser(sharesValues: true).parse(text).value.arrayValue)
        #expect(shared[0].sharesStorage(with: shared[1]))
        #expect(!shared[0].sharesStorage(with: shared[2]), "written differently, so read apart")
        #expect(shared[0] == shared[2])
        let plain = try #require(try JSONParser().parse(text).value.arrayValue)
        #expect(!plain[0].sharesStorage(with: plain[1]))
        #expect(JSONValue.number(JSONNumber(3)).sharesStorage(with: .number(JSONNumber(3))))
        // A string whose characters are an array's text is still a string, and the other way round.
        let lookalikes = #"["[1,2,3,4,5,6,7,8,9]", [1,2,3,4,5,6,7,8,9], [1,2,3,4,5,6,7,8,9], "[1,2,3,4,5,6,7,8,9]"]"#
        #expect(try JSONParser(sharesValues: true).parse(lookalikes).value == JSONParser().parse(lookalikes).value)
        #expect(!JSONValue.string("a").sharesStorage(with: .string("b")))
    }
}
