import ContractSchema
import Testing

struct ECMARegexTests {
    func matches(_ pattern: String, _ string: String) throws -> Bool {
        try ECMARegex(pattern).matches(string)
    }

    @Test(arguments: [
        ("^v[0-9]+(\\.[0-9]+)?$", "v12.3", true), ("^v[0-9]+(\\.[0-9]+)?$", "v12.", false),
        ("^[A-Z]{2}$", "KR", true), ("^[A-Z]{2}$", "KRW", false), ("abc$", "abc\n", false), ("^\\d+$", "\u{09EA}", false),
        ("\\bcat\\b", "a cat!", true), ("\\Bcat", "a cat", false), ("(?<=\\$)\\d+", "cost $42", true), ("(?<!\\$)\\b\\d+", "$42", false),
        ("^(a+)\\1$", "aaaa", true), ("^(a+)\\1$", "aaa", false), ("^(?<x>[ab])\\k<x>$", "bb", true), ("^(?<x>[ab])\\k<x>$", "ab", false),
        ("^a*?b", "aab", true), ("x(?=y)", "xy", true), ("x(?!y)", "xy", false), ("^[^]$", "\n", true), ("^[]$", "", false),
        ("^\\p{Lu}\\p{Ll}+$", "École", true), ("^\\P{L}+$", "123", true), ("^[a\\-z]$", "-", true) as (String, String, Bool),
        ("^\\u{1F432}$", "🐲", true), ("^\\uD83D\\uDC32$", "🐲", true), ("^.$", "🐲", true), ("^\\cJ$", "\n", true),
        ("^(a*)*b$", "aaab", true), ("^(a|ab)(c|bcd)(d*)$", "abcd", true), ("^\\s$", "\u{FEFF}", true), ("^\\w$", "é", false),
        ("^a{2,3}$", "aaaa", false), ("^a{2,}$", "aaaa", true), ("[\\b]", "\u{8}", true), ("^\\/$", "/", true),
    ])
    func matchesLikeECMAScript(_ pattern: String, _ string: String, _ expected: Bool) throws {
        #expect(try matches(pattern, string) == expected, "/\(pattern)/u.test(\(string.debugDescription))")
    }

    @Test(arguments: [
        ("\\a", "invalid escape '\\a' at offset 1"), ("(?i)abc", "invalid group '(?i': expected '(?:', '(?=', '(?!', '(?<=', '(?<!' or '(?<name>' at offset 2"),
        ("[a-z", "unterminated character class at offset 0"), ("a{", "a lone '{' must be escaped as '\\{' at offset 1"),
        ("(ab", "unterminated group at offset 0"), ("ab)", "unmatched ')' at offset 2"), ("*a", "nothing to repeat before '*' at offset 0"),
        ("\\2(a)", "backreference '\\2' names no group at offset 0"), ("[z-a]", "range out of order in character class at offset 4"),
        ("(?=a)*", "a lookaround assertion cannot be repeated at offset 0"), ("\\p{Nope}", "unknown or unsupported Unicode property 'Nope' at offset 0"),
        ("(?P<n>a)", "invalid group '(?P': expected '(?:', '(?=', '(?!', '(?<=', '(?<!' or '(?<name>' at offset 2"), ("a]", "a lone ']' must be escaped as '\\]' at offset 1"),
        ("[\\d-z]", "a class escape such as '\\d' cannot be the end of a range at offset 5"),
    ])
    func rejectsWhatECMAScriptRejects(_ pattern: String, _ message: String) {
        let error = #expect(throws: RegexSyntaxError.self) { try ECMARegex(pattern) }
        #expect(error?.description == message)
    }

    @Test func catastrophicBacktrackingGivesUpInsteadOfHanging() throws {
        let regex = try ECMARegex("^(a+)+$")
        let input = String(repeating: "a", count: 40) + "!"
        #expect(regex.matches(input, stepLimit: 100_000) == .gaveUp)
        #expect(regex.matches(input) == false)
        #expect(regex.matches("aaaa", stepLimit: 100_000) == .matched)
    }

    @Test func usableFromManyTasks() async throws {
        let regex = try ECMARegex("^[A-Z]{3}-[0-9]{4}$")
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<100 {
                group.addTask { regex.matches(index.isMultiple(of: 2) ? "ABC-1234" : "abc-1234") == index.isMultiple(of: 2) }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        // All 100 answered, so an empty group cannot pass.
        #expect(results.count == 100 && results.allSatisfy { $0 })
    }
}

struct RegexNestingTests {
    /// A schema's pattern is input: thousands of nested groups must be an error, not a crash.
    @Test func deeplyNestedGroupsAreRefusedNotACrash() throws {
        let deep = String(repeating: "(", count: 5000) + "a" + String(repeating: ")", count: 5000)
        #expect(throws: RegexSyntaxError.self) { try ECMARegex(deep) }
        let fine = String(repeating: "(?:", count: 200) + "a" + String(repeating: ")", count: 200)
        #expect(try ECMARegex(fine).matches("a"))
    }
}
