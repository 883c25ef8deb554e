import Testing

@testable import ContractSchema

/// `ECMARegex.firstMatch(in:)`, as `RegExp.prototype.exec` answers: the first match's text and its
/// groups, for captures that take a part of a text.
struct RegexFirstMatchTests {
    func match(_ pattern: String, _ text: String) throws -> (text: String, groups: [String?])? {
        try ECMARegex(pattern).firstMatch(in: text)
    }

    @Test func theFirstMatchAndItsGroups() throws {
        let link = try #require(try match("[?&]cursor=([^&]+)", "/items?limit=1&cursor=c0ffee&x=1"))
        #expect(link.text == "&cursor=c0ffee")
        #expect(link.groups == ["c0ffee"])
        // The leftmost match, not the longest; no group: the whole match.
        #expect(try match("[0-9]+", "a12b345")?.text == "12")
        #expect(try match("[0-9]+", "a12b345")?.groups.isEmpty == true)
        // A group that took no part is nil, as `undefined` in ECMA-262.
        #expect(try match("a|(b)", "xa")?.groups == [nil])
        #expect(try match("(x)?(y)", "y")?.groups == [nil, "y"])
        // Anchors, and text beyond ASCII counted in scalars.
        #expect(try match("/items/([0-9]+)$", "https://h/items/41")?.groups == ["41"])
        #expect(try match("é(.)", "café!")?.groups == ["!"])
        #expect(try match("^b", "ab") == nil)
    }

    @Test func aPatternThatBacktracksWithoutEndGivesUp() throws {
        let text = String(repeating: "a", count: 40) + "!"
        #expect(try ECMARegex("^(a+)+$").firstMatch(in: text, stepLimit: 10_000) == nil)
    }
}
