import ContractJSON
import Testing

@testable import ContractSchema

/// The verdict-only fast paths (``Evaluator/check(_:_:)``, ``AnchoredSequenceMatcher``, the
/// in-place `uniqueItems`, property names tried in schema order, the URI bitmaps) must agree
/// with the full validation, and leave the collected errors as they were.
struct VerdictFastPathTests {
    private func schema(_ text: String) throws -> JSONSchema {
        try JSONSchema(JSONParser(tracksLocations: false).parse(Array(text.utf8)).value)
    }

    private func value(_ text: String) throws -> JSONValue {
        try JSONParser(tracksLocations: false).parse(Array(text.utf8)).value
    }

    /// isValid and validate agree, and validate reports the given instance locations.
    private func expect(_ schema: JSONSchema, _ instance: String, valid: Bool, at locations: [String] = [],
                        sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        // Both ways to a tape: parsed straight from the bytes (verify, the stubs) and laid out from a value.
        let parsed = try JSONParser(tracksLocations: false).parseTape(Array(instance.utf8))
        #expect(schema.isValid(parsed) == valid, sourceLocation: sourceLocation)
        let instance = try value(instance)
        #expect(schema.isValid(instance) == valid, sourceLocation: sourceLocation)
        let errors = schema.validate(instance).errors
        #expect(errors.isEmpty == valid, sourceLocation: sourceLocation)
        if !locations.isEmpty {
            #expect(errors.map(\.instanceLocation.description) == locations, sourceLocation: sourceLocation)
        }
    }

    @Test func referenceOnlySchemasReachTheirTargets() throws {
        let schema = try schema("""
            {"$defs": {"Id": {"$ref": "#/$defs/Uuid"}, "Uuid": {"type": "string", "format": "uuid"}},
             "type": "object", "properties": {"id": {"$ref": "#/$defs/Id"}}, "required": ["id"]}
            """)
        try expect(schema, #"{"id": "6301bbfc-a0c5-454e-8ff9-bb510944fe0c"}"#, valid: true)
        try expect(schema, #"{"id": "6301bbfc"}"#, valid: false, at: ["/id"])
        try expect(schema, #"{"id": 3}"#, valid: false, at: ["/id"])
        let errors = schema.validate(try value(#"{"id": 3}"#)).errors
        #expect(errors.first?.keywordLocation.description == "/properties/id/$ref/$ref/type")
    }

    @Test func propertiesInAnyOrderAndRequiredCounted() throws {
        let schema = try schema("""
            {"type": "object", "additionalProperties": false, "required": ["a", "b", "c"],
             "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "boolean"},
                            "d": {}, "e": {}, "f": {}, "g": {}, "h": {}}}
            """)
        try expect(schema, #"{"a": 1, "b": "x", "c": true}"#, valid: true)
        try expect(schema, #"{"c": true, "b": "x", "a": 1, "h": 0, "d": 0}"#, valid: true)
        try expect(schema, #"{"c": true, "a": 1}"#, valid: false)
        // An unexpected member is reported on its object, naming the member.
        try expect(schema, #"{"a": 1, "b": "x", "c": true, "z": 1}"#, valid: false, at: [""])
        #expect(schema.validate(try value(#"{"a": 1, "b": "x", "c": true, "z": 1}"#)).errors.first?.unexpectedMember == "z")
        try expect(schema, #"{"b": "x", "a": "1", "c": true}"#, valid: false, at: ["/a"])
    }

    @Test func uniqueItemsComparedInPlace() throws {
        let schema = try schema(#"{"uniqueItems": true}"#)
        try expect(schema, #"["a", "b", "c"]"#, valid: true)
        try expect(schema, #"["a", "b", "a"]"#, valid: false)
        try expect(schema, #"[1, 1.0]"#, valid: false)
        try expect(schema, #"[1, true]"#, valid: true)
        try expect(schema, #"[0, false, null, "", [], {}]"#, valid: true)
        try expect(schema, #"[{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]"#, valid: false)
        try expect(schema, #"[{"a": 1, "b": [2]}, {"b": [3], "a": 1}]"#, valid: true)
        try expect(schema, #"[[1, 2], [2, 1]]"#, valid: true)
        try expect(schema, #"[1e400, 1e400]"#, valid: false)
        let long = (0..<40).map(String.init).joined(separator: ",")
        try expect(schema, "[\(long)]", valid: true)
        try expect(schema, "[\(long),7]", valid: false)
        let message = schema.validate(try value(#"["x", "y", "x"]"#)).errors.first?.message
        #expect(message == "expected unique items, found items 0 and 2 equal")
    }

    @Test func anchoredSequencesAgreeWithTheMachine() throws {
        let patterns = [
            "^[A-Z]{3}-[0-9]{4,6}$", "^[A-Z]{2}$", "^ST[0-9]{4}$", "^[a-z0-9-]+$", "^WH-[A-Z]{2}-[0-9]{2}$",
            "^(ab)c$", "^a{0,2}b$", "^$", "^\\d+$", "^[^a]+$", "^a*a$", "^[a-z]+[0-9]*$", "^x?y$", "^a+?b$",
        ]
        let texts = [
            "", "a", "b", "ab", "abc", "aab", "aaab", "AB", "ABC", "ABC-1234", "ABC-123456", "ABC-1234567", "ABC-123",
            "AB-1234", "abc-1234", "ST1234", "ST12345", "foxtrot-6", "Foxtrot", "WH-DE-56", "WH-DE-5", "12", "1x", "xy",
            "y", "é", "aé", "ABÉ", "a1", "aa", "ab\n", "ABC-1234\n",
        ]
        for pattern in patterns {
            let regex = try ECMARegex(pattern)
            let machineOnly = ECMARegex(machineOnlyFrom: regex)
            for text in texts {
                #expect(regex.matches(text) == machineOnly.matches(text), "\(pattern) on \(text)")
            }
        }
        #expect(try ECMARegex("^[A-Z]{3}-[0-9]{4,6}$").sequence != nil)
        #expect(try ECMARegex("^[a-z]+[0-9]*$").sequence == nil)  // a run with a choice before an optional one
        #expect(try ECMARegex("^a*a$").sequence == nil)
        #expect(try ECMARegex("^[^a]+$").sequence == nil)  // negated: not ASCII only
        #expect(try ECMARegex("[a-z]+").sequence == nil)  // not anchored
    }

    @Test func uriBitmapsKeepTheGrammar() {
        for byte in UInt8(0x21)...UInt8(0x7E) {
            let character = String(UnicodeScalar(byte))
            let pchar = "-._~!$&'()*+,;=:@/".contains(character) || character.first?.isLetter == true || character.first?.isNumber == true
            let special = "?#%".contains(character)
            if !special {
                #expect(FormatChecker.isValid("https://example.com/a\(character)b", format: "uri") == pchar, "path \(character)")
            }
            let host = "-._~!$&'()*+,;=%".contains(character) || character.first?.isLetter == true || character.first?.isNumber == true
            if !"/?#@:[".contains(character) {
                #expect(FormatChecker.isValid("https://ex\(character)ample.com/", format: "uri") == host, "host \(character)")
            }
        }
        #expect(FormatChecker.isValid("https://cdn.example.com/img/1.jpg?size=2#top", format: "uri") == true)
        #expect(FormatChecker.isValid("https://cdn.example.com/a b", format: "uri") == false)
        #expect(FormatChecker.isValid("https://cdn.example.com/%zz", format: "uri") == false)
        #expect(FormatChecker.isValid("https://cdn.example.com/é", format: "uri") == false)
        #expect(FormatChecker.isValid("https://cdn.example.com/é", format: "iri") == true)
    }
    /// The inline bounds and `multipleOf` read the numbers' 64-bit scaled forms; each edge, an
    /// exponent form, a negative zero and a number too long for 64 bits must read as the full path does.
    @Test func numericKeywordsInlineAgreeAtTheirEdges() throws {
        let multiple = try schema(#"{"multipleOf": 0.01}"#)
        for (text, valid) in [("1.5", true), ("1.55", true), ("1.555", false), ("100", true), ("-2.37", true), ("1.5e2", true),
                              ("15e-1", true), ("1e-3", false), ("12345678901234567.89", true), ("0.1", true), ("\"x\"", true)] {
            try expect(multiple, text, valid: valid)
        }
        let bounded = try schema(#"{"minimum": 0, "maximum": 1000000}"#)
        for (text, valid) in [("-0.0001", false), ("0", true), ("-0", true), ("1000000", true), ("1000000.01", false), ("1e6", true),
                              ("1.0000001e6", false), ("-1e400", false), ("\"-5\"", true)] {
            try expect(bounded, text, valid: valid)
        }
        let exclusive = try schema(#"{"exclusiveMinimum": 0, "exclusiveMaximum": 10}"#)
        for (text, valid) in [("0", false), ("0.0", false), ("1e-9", true), ("9.999", true), ("10", false), ("10.0", false), ("1e1", false)] {
            try expect(exclusive, text, valid: valid)
        }
        let exact = try schema(#"{"maximum": 9007199254740993, "minimum": 1.5}"#)
        for (text, valid) in [("9007199254740993", true), ("9007199254740994", false), ("1.4999999999999999999999", false), ("1.5", true)] {
            try expect(exact, text, valid: valid)
        }
    }

    /// String lengths count code points, not bytes, on the inline path as on the full one.
    @Test func stringLengthsInlineCountCodePoints() throws {
        let schema = try schema(#"{"minLength": 2, "maxLength": 3}"#)
        for (text, valid) in [("\"\"", false), ("\"a\"", false), ("\"ab\"", true), ("\"abc\"", true), ("\"abcd\"", false),
                              ("\"éé\"", true), ("\"ééé\"", true), ("\"😀😀😀\"", true), ("\"😀😀😀😀\"", false),
                              ("\"\\u00e9\\u00e9\"", true), ("7", true)] {
            try expect(schema, text, valid: valid)
        }
    }
}
