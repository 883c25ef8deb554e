import ContractHTTP
import ContractJSON
import ContractModel
import ContractSchema
import Testing

@testable import ContractVerifier

/// The pieces a flow's checks stand on, attacked with awkward values: inserted texts with every
/// character a pattern reads as syntax, date-times at the edges of RFC 3339, numbers beyond
/// doubles, groups found inside lookarounds.
struct FlowAttackValueTests {
    static let awkward: [String] = {
        var texts = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["", "é", "😀", "a\u{301}", "\n", "\t", "a-b", "]", "\\", "\\\\", "${x}", "(?:", "[^]", "{1,2}", "\u{0}", "\u{FEFF}", "x]y[z", "/items/41?x=1&y=[2]"]
        texts.append((0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }.joined())
        return texts
    }()

    @Test(arguments: awkward)
    func anInsertedTextMatchesItselfLiterally(_ text: String) throws {
        let bindings = Bindings(environment: [:], captures: ["v": .string(text)])
        for written in ["^${capture:v}$", "^a${capture:v}b$", "(${capture:v})", "^(?:${capture:v})+$", "^${capture:v}?$"] {
            let pattern = bindings.pattern(written)
            let regex = try ECMARegex(pattern)
            #expect(regex.matches(text) || written == "^a${capture:v}b$", "\(written) as \(pattern)")
            if written == "^a${capture:v}b$" { #expect(regex.matches("a" + text + "b"), "\(pattern)") }
            // Literal: no other text of the same length matches where the value is not just one character class.
            if !text.isEmpty, written == "^${capture:v}$" { #expect(!regex.matches(text + "x"), "\(pattern)") }
        }
    }

    @Test func aPlaceholderBeforeAQuantifierRepeatsTheWholeValue() throws {
        let bindings = Bindings(environment: [:], captures: ["v": .string("ab"), "e": .string("")])
        #expect(try ECMARegex(bindings.pattern("^${capture:v}+$")).matches("abab"))
        #expect(try ECMARegex(bindings.pattern("^x${capture:e}*$")).matches("x"))
    }

    @Test func firstMatchGroups() throws {
        func groups(_ pattern: String, _ text: String) throws -> [String?]? { try ECMARegex(pattern).firstMatch(in: text)?.groups }
        #expect(try groups("(?=([0-9]+))", "ab123") == ["123"])
        #expect(try groups("(?<=(a))b", "xab") == ["a"])
        #expect(try groups("(a)|(b)", "b") == [nil, "b"])
        #expect(try groups("(a)\\1(b)", "xaab") == ["a", "b"])
        #expect(try groups("é(.)", "xé😀y") == ["😀"])
        #expect(try groups("(.)$", "a\u{301}") == ["\u{301}"])
        #expect(try ECMARegex("😀(.)").firstMatch(in: "😀😀x")?.text == "😀😀")
    }

    @Test func instantsOrder() throws {
        func order(_ left: String, _ right: String) -> ValueChecker.Order? { ValueChecker.order(.string(left), right) }
        #expect(order("2024-01-01T00:00:00+01:00", "2024-01-01T00:00:00Z") == .less)
        #expect(order("2024-01-01t00:00:00z", "2024-01-01T00:00:00Z") == .same)
        #expect(order("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.50Z") == .same)
        #expect(order("2024-01-01T00:00:00.05Z", "2024-01-01T00:00:00.5Z") == .less)
        #expect(order("0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z") == .less)
        #expect(order("0000-03-01T00:00:00Z", "0000-02-29T00:00:00Z") == .more)
        #expect(order("2024-01-01T00:00:00-23:59", "2024-01-01T23:59:00Z") == .same)
        // A leap second comes after the second before it and before the next minute.
        #expect(order("2016-12-31T23:59:60Z", "2016-12-31T23:59:59.999Z") == .more)
        #expect(order("2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z") == .less)
        #expect(order("2016-12-31T23:59:60.5Z", "2017-01-01T00:00:00Z") == .less)
        #expect(order("2016-12-31T23:59:60.5Z", "2016-12-31T23:59:60.25Z") == .more)
        #expect(order("2017-01-01T08:59:60+09:00", "2016-12-31T23:59:60Z") == .same)
    }

    @Test func numbersOrder() {
        func order(_ left: String, _ right: String) -> ValueChecker.Order? {
            ValueChecker.order(.number(JSONNumber(left) ?? JSONNumber(0)), right)
        }
        #expect(order("1e400", "2") == .more)
        #expect(order("-0", "0") == .same)
        #expect(order("1E2", "99") == .more)
        #expect(order("123456789012345678901234567890", "123456789012345678901234567891") == .less)
        #expect(order("0.1", "1e-1") == .same)
        #expect(order("-1e400", "-1e399") == .less)
        #expect(ValueChecker.order(.bool(true), "1") == nil)
        #expect(ValueChecker.order(.null, "0") == nil)
        #expect(ValueChecker.order(.string("2024-01-01T00:00:00Z"), "5") == nil)
        // A large integer sent as a string, as some APIs do, orders as the number it is.
        #expect(ValueChecker.order(.string("12345678901234567891"), "12345678901234567890") == .more)
        #expect(ValueChecker.order(.string("twelve"), "5") == nil)
    }

    /// `"41"` equals `41` only where a capture that is text by its source (a header, a pattern's
    /// part) stands for it: a string the contract writes out is a string, and so is one a JSON
    /// body gave (a create that answers `"41"` and a read that answers `41` drifted).
    @Test func onlyACapturedTextEqualsANumber() throws {
        var bindings = Bindings(environment: ["N": "12"])
        bindings.keep(.string("41"), capturedBy: SetupStep.Capture(variable: "made", source: .header("Location"), pattern: "([0-9]+)$"), from: "http://h/x")
        bindings.keep(.string("41"), capturedBy: SetupStep.Capture(variable: "bodyMade", pointer: try JSONPointer(parsing: "/id")), from: "http://h/x")
        let checker = ValueChecker(bindings: bindings, checker: ResponseChecker(catalog: SchemaCatalog(Fixtures.load([:]))))
        let body = JSONValue.object(JSONObject([JSONObject.Member(key: "n", value: .number(JSONNumber(12))), JSONObject.Member(key: "id", value: .number(JSONNumber(41)))]))
        func findings(_ pointer: String, _ relation: ValueExpectation.Relation) throws -> [String] {
            checker.check([ValueExpectation(pointer: try JSONPointer(parsing: pointer), relation: relation)], in: body).map(\.message)
        }
        #expect(try findings("/id", .equals(.string("${capture:made}"))).isEmpty)
        #expect(try findings("/n", .equals(.string("12"))) == [#"expected /n to equal "12", found 12"#])
        #expect(try findings("/n", .equals(.string("${env:N}"))) == ["expected /n to equal '***', found 12"])
        #expect(try findings("/n", .differs(.string("12"))).isEmpty)
        #expect(try findings("/id", .differs(.string("${capture:made}"))) == [#"expected /id to differ from the captured 'made' ("41"), found the same"#])
        #expect(try findings("/id", .equals(.string("${capture:bodyMade}"))) == [#"expected /id to equal the captured 'bodyMade' ("41"), found 41"#])
        #expect(try findings("/id", .differs(.string("${capture:bodyMade}"))).isEmpty)
    }

    /// A header's text equals the body's number where the two write the same number: a price of
    /// `12.50` in both, or `1e2`, is no drift, though the number reads back as `12.5` and `100`.
    @Test func aCapturedTextEqualsTheNumberItWrites() throws {
        var bindings = Bindings(environment: [:])
        for (name, text) in [("price", "12.50"), ("hundred", "1e2"), ("word", "12.50x")] {
            bindings.keep(.string(text), capturedBy: SetupStep.Capture(variable: name, source: .header("X-\(name)")), from: "http://h/x")
        }
        let checker = ValueChecker(bindings: bindings, checker: ResponseChecker(catalog: SchemaCatalog(Fixtures.load([:]))))
        let body = try JSONParser().parse(#"{"price": 12.50, "hundred": 1e2, "other": 12.5001}"#).value
        func findings(_ pointer: String, _ relation: ValueExpectation.Relation) throws -> [String] {
            checker.check([ValueExpectation(pointer: try JSONPointer(parsing: pointer), relation: relation)], in: body).map(\.message)
        }
        #expect(try findings("/price", .equals(.string("${capture:price}"))).isEmpty)
        #expect(try findings("/hundred", .equals(.string("${capture:hundred}"))).isEmpty)
        #expect(try findings("/price", .differs(.string("${capture:price}"))) == [#"expected /price to differ from the captured 'price' ("12.50"), found the same"#])
        #expect(try findings("/other", .equals(.string("${capture:price}"))) == [#"expected /other to equal the captured 'price' ("12.50"), found 12.5001"#])
        #expect(try findings("/price", .equals(.string("${capture:word}"))) == [#"expected /price to equal the captured 'word' ("12.50x"), found 12.5"#])
    }

    /// `someElement` over 100,000 elements, the match last: every element is tried once.
    @Test func someElementOverAHundredThousand() throws {
        let elements = (0..<100_000).map { JSONValue.object(JSONObject([JSONObject.Member(key: "id", value: .number(JSONNumber($0)))])) }
        let body = JSONValue.object(JSONObject([JSONObject.Member(key: "items", value: .array(elements))]))
        let inner = [ValueExpectation(pointer: try JSONPointer(parsing: "/id"), relation: .equals(.number(JSONNumber(99_999))))]
        let expectation = ValueExpectation(pointer: try JSONPointer(parsing: "/items"), relation: .someElement(inner))
        let checker = ValueChecker(bindings: Bindings(environment: [:]), checker: ResponseChecker(catalog: SchemaCatalog(Fixtures.load([:]))))
        #expect(checker.check([expectation], in: body).isEmpty)
        let missing = ValueExpectation(pointer: try JSONPointer(parsing: "/items"), relation: .someElement([ValueExpectation(pointer: try JSONPointer(parsing: "/id"), relation: .equals(.number(JSONNumber(-1))))]))
        #expect(checker.check([missing], in: body).first?.message == "expected some element of /items to have /id equal to -1, found none of its 100000")
    }
}

