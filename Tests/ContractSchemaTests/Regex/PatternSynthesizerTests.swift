import ContractJSON
import ContractSchema
import Foundation
import TestSupport
import Testing

@Suite struct PatternSynthesizerTests {
    /// The example for `pattern`, required to exist, to match through the real engine, and to have
    /// a length in code points (Unicode scalars, as JSON Schema counts) within the bounds.
    @discardableResult
    func example(_ pattern: String, minLength: Int = 0, maxLength: Int? = nil) throws -> String {
        let text = try #require(PatternSynthesizer.matchingExample(for: pattern, minLength: minLength, maxLength: maxLength), "\(pattern)")
        #expect(try ECMARegex(pattern).matches(text), "/\(pattern)/ -> \(text.debugDescription)")
        #expect(text.unicodeScalars.count >= minLength, "\(pattern) -> \(text.debugDescription)")
        if let maxLength { #expect(text.unicodeScalars.count <= maxLength, "\(pattern) -> \(text.debugDescription)") }
        return text
    }

    @Test func sendGridPatternsWithTheirLengthBounds() throws {
        let alphanumeric = try example("^[A-Za-z0-9]+", minLength: 3, maxLength: 50)
        #expect(alphanumeric.allSatisfy { $0.isLetter || $0.isNumber })
        try example("^$|^[A-Za-z0-9]+", minLength: 1)
        try example(#"^((http[s]?|ftp):\/)?\/?([^:\/\s]+)((\/\w+)*\/)([\w\-\.]+[^#?\s]+)(.*)?(#[\w\-]+)?$"#, minLength: 5)
    }

    @Test func laterAlternativesWhenTheFirstIsTooShort() throws {
        let text = try example("^$|^[A-Za-z0-9]+", minLength: 3)
        #expect(text.count >= 3 && text.allSatisfy { $0.isLetter || $0.isNumber })
        #expect(try example("^(a|bbbb|cc)$", minLength: 2, maxLength: 3) == "cc")
    }

    @Test(arguments: [
        ("^\\d{3}-\\d{4}$", 0), ("^[^@]+@[^@]+\\.[a-z]{2,}$", 0), ("^(?:[a-z0-9-]+\\.)+[a-z]{2,}$", 10), ("^.{5,10}$", 0),
        ("^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", 0), ("^#[0-9a-fA-F]{6}$", 0), ("^(\\+|-)?\\d+(\\.\\d+)?$", 0),
        ("^[A-Z]{2}$", 0), ("^id_validation_[a-zA-Z0-9_]+$", 0), ("^(?=.*[A-Z])(?=.*\\d).{8,}$", 8), ("^\\p{Lu}\\p{Ll}+$", 4),
        ("^(?<year>\\d{4})-(?<month>\\d{2})$", 0), ("^[\\u0041-\\u005A]{2}\\x2D\\u{1F432}$", 0), ("^\\bword\\b\\s\\S\\D\\W$", 0),
        ("^[^\\x00-\\x7F]+$", 3), ("^\\t\\n\\r\\f\\v\\0$", 0), ("^(?:a|b)*?c{2,}?$", 4), ("^(?!-)[a-z0-9-]{1,63}(?<!-)$", 40),
    ] as [(String, Int)])
    func commonPatternsGetAMatchingString(_ pattern: String, _ minLength: Int) throws {
        try example(pattern, minLength: minLength)
    }

    @Test func readableOutput() throws {
        #expect(try example("^\\d{3}-\\d{4}$") == "012-0123")
        #expect(try example("^[A-Z]{2}$") == "AB")
        #expect(try example("^#[0-9a-fA-F]{6}$") == "#012345")
        #expect(try example("^.{5,10}$") == "abcxy")
        // `\w` is digits first in the engine's set; lowercase first reads more like an identifier.
        #expect(try example("^\\w{3}[\\w-]$") == "abca")
        #expect(try example("^\\s\\S[^\\d]$") == " aa")
    }

    @Test func unanchoredPatternsArePadded() throws {
        let text = try example("abc", minLength: 8)
        #expect(text.count == 8 && text.contains("abc"))
        try example("abc$", minLength: 8, maxLength: 8)
    }

    @Test func lengthIsCountedInCodePoints() throws {
        let text = try example("\\u00e9+", minLength: 2)
        // Two code points, though one `é` is already two UTF-8 bytes.
        #expect(text == "\u{E9}\u{E9}")
        let dragons = try example("^\\u{1F432}{2,}$", minLength: 3, maxLength: 3)
        #expect(dragons == "🐲🐲🐲" && dragons.utf16.count == 6)
    }

    @Test func exactLengthsThatUniformGrowthMisses() throws {
        #expect(try example("^a+b+$", minLength: 5, maxLength: 5).count == 5)
        #expect(try example("^(a+)+$", minLength: 30).count == 30)
    }

    @Test func longMinimumsAreReached() throws {
        #expect(try example("^[a-z]+$", minLength: 100_000).unicodeScalars.count == 100_000)
        #expect(try example("^(?:ab)+c?$", minLength: 1001, maxLength: 1001).hasSuffix("c"))
    }

    @Test func givesUpWhenNothingFits() {
        #expect(PatternSynthesizer.matchingExample(for: "^(a)\\1$") == nil)
        #expect(PatternSynthesizer.matchingExample(for: "^(?<x>a)\\k<x>$") == nil)
        #expect(PatternSynthesizer.matchingExample(for: "^(?=(a)\\1)a+$") == nil)
        #expect(PatternSynthesizer.matchingExample(for: "^[A-Z]{2}$", minLength: 3) == nil)
        #expect(PatternSynthesizer.matchingExample(for: "^[a-z]+$", minLength: 5, maxLength: 4) == nil)
        #expect(PatternSynthesizer.matchingExample(for: "^[]$") == nil)
        #expect(PatternSynthesizer.matchingExample(for: "(?i)abc") == nil)
        #expect(PatternSynthesizer.matchingExample(for: "^a$(?=b)") == nil)
    }

    @Test func theSameInputGivesTheSameOutput() {
        let pattern = "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$"
        let first = PatternSynthesizer.matchingExample(for: pattern, minLength: 12, maxLength: 20)
        for _ in 0..<5 { #expect(PatternSynthesizer.matchingExample(for: pattern, minLength: 12, maxLength: 20) == first) }
    }

    @Test func exampleKeepsItsMeaning() throws {
        for pattern in ["^[A-Z]{3}-[0-9]{4,6}$", "^v[0-9]+(\\.[0-9]+)?$", "^(GET|POST)$", "^$|^[a-z]+"] {
            let text = try #require(PatternSynthesizer.example(for: pattern), "\(pattern)")
            #expect(try ECMARegex(pattern).matches(text))
        }
        // Not ECMA-262 in Unicode mode (`\a` is an error there): the engine rejects it, so no example.
        #expect(PatternSynthesizer.example(for: "^\\a-\\z$") == nil)
    }

    @Test func nastyPatternsReturnWithinTheCaps() {
        // Only that these return: the caps bound the work, whatever the answer.
        for (pattern, minLength) in [("^(a+)+$", 30), ("^(a|aa)+b$", 200), ("^((a*)*)*c(?!c)$", 1000), ("^(?=x)[a-w]+$", 10)] {
            _ = PatternSynthesizer.matchingExample(for: pattern, minLength: minLength)
        }
        _ = PatternSynthesizer.matchingExample(for: String(repeating: "(", count: 5000) + "a" + String(repeating: ")", count: 5000))
        _ = PatternSynthesizer.matchingExample(for: "^" + String(repeating: "(a|b|c)", count: 400) + "$", minLength: 10)
        _ = PatternSynthesizer.matchingExample(for: "a{100000}b{100000}", minLength: 5)
        // Repeats of nothing add no length: only the work budget stops them.
        _ = PatternSynthesizer.matchingExample(for: "^((?:)*(\\b)*)*x$", minLength: 1_000_000)
        _ = PatternSynthesizer.matchingExample(for: "^(?:(?:(?:a*)*)*)*$", minLength: 5000, maxLength: 4999 + 2)
    }

    @Test func randomPatternTextNeverCrashesOrLies() {
        let alphabet = Array("ab09-^$|()[]{}.*+?\\,:=!<>dDwWsSbBukpx{}1 ")
        var generator = SplitMix(seed: 42)
        var answered = 0
        for _ in 0..<3000 {
            let length = Int(generator.next() % 16) + 1
            let pattern = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let minLength = Int(generator.next() % 6)
            _ = PatternSynthesizer.example(for: pattern)
            guard let text = PatternSynthesizer.matchingExample(for: pattern, minLength: minLength, maxLength: minLength + 4) else { continue }
            answered += 1
            #expect((try? ECMARegex(pattern))?.matches(text) == true, "/\(pattern)/ -> \(text.debugDescription)")
            #expect((minLength...(minLength + 4)).contains(text.unicodeScalars.count), "/\(pattern)/ -> \(text.debugDescription)")
        }
        #expect(answered > 100)
    }

    /// Every `pattern` and `patternProperties` key in the JSON-Schema-Test-Suite (draft 2020-12,
    /// required and optional files): whenever there is an answer it is right, with the schema's own
    /// `minLength`/`maxLength` when it has them.
    @Test(arguments: ["", "optional"])
    func everyTestSuitePatternGetsARightAnswerOrNone(_ folder: String) throws {
        let directory = SharedData.url("json-schema-test-suite/tests/draft2020-12").appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        var found: [(pattern: String, minLength: Int, maxLength: Int?)] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let object):
                if let pattern = object["pattern"]?.stringValue {
                    let minLength = object["minLength"]?.numberValue.map { Int($0.doubleValue) } ?? 0
                    found.append((pattern, minLength, object["maxLength"]?.numberValue.map { Int($0.doubleValue) }))
                }
                for key in object["patternProperties"]?.objectValue?.keys ?? [] { found.append((key, 0, nil)) }
                for member in object { collect(member.value) }
            case .array(let elements): elements.forEach(collect)
            default: break
            }
        }
        for file in files {
            let groups = try JSONParser().parse(Array(Data(contentsOf: directory.appendingPathComponent(file)))).value.arrayValue ?? []
            for group in groups { if let schema = group.objectValue?["schema"] { collect(schema) } }
        }
        #expect(found.count >= 10)
        var answered = 0
        for (pattern, minLength, maxLength) in found {
            guard let text = PatternSynthesizer.matchingExample(for: pattern, minLength: minLength, maxLength: maxLength) else { continue }
            answered += 1
            #expect((try? ECMARegex(pattern))?.matches(text) == true, "/\(pattern)/ -> \(text.debugDescription)")
            #expect(text.unicodeScalars.count >= minLength && text.unicodeScalars.count <= maxLength ?? .max)
        }
        print("pattern synthesis: \(answered) of \(found.count) JSON-Schema-Test-Suite patterns in draft2020-12/\(folder) got a matching string")
        #expect(answered * 10 >= found.count * 8, "\(answered) of \(found.count)")
    }
}
