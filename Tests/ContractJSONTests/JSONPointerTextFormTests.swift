import ContractJSON
import Testing

/// A pointer is held as its escaped text; read through `tokens`, compared and ordered, it behaves
/// as the array of tokens it replaced.
struct JSONPointerTextFormTests {
    static let awkward: [[String]] = [
        [], [""], ["", ""], ["a/b"], ["m~n"], ["~1"], ["~0/"], ["cases", "12345"], ["cases", "2", "response", "schema"],
        ["é", "e\u{301}"], ["paths", "/api/products/{id}", "get"], ["-"], ["01"], ["10"], ["2"],
        // A combining mark after `~`, `/` or at a token's start: one character with what precedes
        // it, yet the escape and the separator are read by code points.
        ["~\u{301}"], ["a/\u{301}"], ["\u{301}"], ["#\u{301}"], ["~", "\u{301}~"],
    ]

    @Test func combiningMarksDoNotHideSeparatorsOrEscapes() throws {
        #expect(try JSONPointer(parsing: "/\u{301}/a").tokens == ["\u{301}", "a"])
        #expect(try JSONPointer(parsing: "/~0\u{301}").tokens == ["~\u{301}"])
        #expect(try JSONPointer(parsing: "/a~1\u{301}").tokens == ["a/\u{301}"])
        #expect(try JSONPointer(uriFragment: "#/%CC%81").tokens == ["\u{301}"])
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/~\u{301}") }
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "\u{301}/a") }
    }

    /// One string: 16 bytes inline, where an array of strings was 8 bytes and a heap block.
    @Test func aPointerIsOneString() {
        #expect(MemoryLayout<JSONPointer>.size == MemoryLayout<String>.size)
    }

    @Test(arguments: awkward)
    func tokensReadBackAsTheyWereGiven(_ tokens: [String]) throws {
        let pointer = JSONPointer(tokens: tokens)
        #expect(pointer.tokens == tokens)
        #expect(Array(pointer.tokenSequence) == tokens)
        #expect(pointer.tokenCount == tokens.count)
        #expect(pointer.isRoot == tokens.isEmpty)
        #expect(try JSONPointer(parsing: pointer.description) == pointer)
        #expect(try JSONPointer(uriFragment: pointer.uriFragment) == pointer)
        #expect(pointer.parent == (tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))))
        let appended = tokens.reduce(JSONPointer.root) { $0.appending($1) }
        #expect(appended == pointer && appended.hashValue == pointer.hashValue)
    }

    @Test func escapesAsRFC6901Writes() {
        #expect(JSONPointer(tokens: ["paths", "/api/{id}", "a~b"]).description == "/paths/~1api~1{id}/a~0b")
        #expect(JSONPointer(tokens: ["~1"]).description == "/~01")
        #expect(JSONPointer.root.appending(3).appending("x").description == "/3/x")
    }

    @Test func settingTokensRewritesThePointer() {
        var pointer = JSONPointer(tokens: ["a", "b"])
        pointer.tokens = ["c/d"]
        #expect(pointer.description == "/c~1d" && pointer.tokens == ["c/d"])
    }

    /// Equal and ordered exactly as arrays of tokens compare: token by token, array indices by
    /// number, strings by canonical equivalence, a prefix first.
    @Test func comparesAsTheTokensDo() {
        func arrayOrder(_ left: [String], _ right: [String]) -> Bool {
            for (l, r) in zip(left, right) where l != r {
                if let a = JSONPointer.arrayIndex(l), let b = JSONPointer.arrayIndex(r) { return a < b }
                return l < r
            }
            return left.count < right.count
        }
        for left in Self.awkward {
            for right in Self.awkward {
                let (l, r) = (JSONPointer(tokens: left), JSONPointer(tokens: right))
                #expect((l == r) == (left == right), "\(left) == \(right)")
                #expect((l < r) == arrayOrder(left, right), "\(left) < \(right)")
            }
        }
        #expect(JSONPointer(tokens: ["é"]) == JSONPointer(tokens: ["e\u{301}"]))
        #expect(JSONPointer(tokens: ["cases", "2"]) < JSONPointer(tokens: ["cases", "10"]))
    }
}
