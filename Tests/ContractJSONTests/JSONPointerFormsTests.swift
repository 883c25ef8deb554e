import ContractJSON
import Testing

/// A pointer is held as its escaped text when short and as its tokens when long; read through
/// `tokens`, compared, hashed and ordered, both behave as the array of tokens they replaced.
///
/// That appending below a long token shares it, rather than copying it for every value below,
/// is held by `ImportErrorTests.valuesBelowAnEightMegabyteYAMLKeyStayLinear`.
struct JSONPointerFormsTests {
    /// A token long enough that any pointer holding it is kept as tokens.
    static let long = String(repeating: "k", count: 100)

    static let awkward: [[String]] = [
        [], [""], ["", ""], ["a/b"], ["m~n"], ["~1"], ["~0/"], ["cases", "12345"], ["cases", "2", "response", "schema"],
        ["é", "e\u{301}"], ["paths", "/api/products/{id}", "get"], ["-"], ["01"], ["10"], ["2"],
        ["~\u{301}", "/\u{301}"], [long], [long, "a/b", "~"], ["x", long], ["cases", "1", long],
        // Around the limit: 64 bytes escaped as text, 65 as tokens, and one token that crosses it by its escapes.
        [String(repeating: "a", count: 63)], [String(repeating: "a", count: 64)], [String(repeating: "/", count: 31) + "a"],
        [String(repeating: "/", count: 32)],
    ]

    @Test(arguments: awkward)
    func tokensReadBackAsTheyWereGiven(_ tokens: [String]) throws {
        let pointer = JSONPointer(tokens: tokens)
        #expect(pointer.tokens == tokens)
        #expect(pointer.isRoot == tokens.isEmpty)
        #expect(try JSONPointer(parsing: pointer.description) == pointer)
        #expect(try JSONPointer(uriFragment: pointer.uriFragment) == pointer)
        #expect(pointer.parent == (tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))))
        let appended = tokens.reduce(JSONPointer.root) { $0.appending($1) }
        #expect(appended == pointer && appended.hashValue == pointer.hashValue)
        #expect(appended.description == pointer.description)
    }

    @Test func escapesAsRFC6901Writes() {
        #expect(JSONPointer(tokens: ["paths", "/api/{id}", "a~b"]).description == "/paths/~1api~1{id}/a~0b")
        #expect(JSONPointer(tokens: ["~1"]).description == "/~01")
        #expect(JSONPointer.root.appending(3).appending("x").description == "/3/x")
        #expect(JSONPointer(tokens: [Self.long, "a/b"]).description == "/\(Self.long)/a~1b")
    }

    @Test func settingTokensRewritesThePointer() {
        var pointer = JSONPointer(tokens: ["a", "b"])
        pointer.tokens = ["c/d"]
        #expect(pointer.description == "/c~1d" && pointer.tokens == ["c/d"])
        pointer.tokens = [Self.long]
        #expect(pointer.description == "/" + Self.long && pointer.parent == .root)
    }

    /// Read by bytes: a combining mark after `/` or `~` leaves it a separator or an escape.
    @Test func parsesSeparatorsAndEscapesFollowedByMarks() throws {
        #expect(try JSONPointer(parsing: "/a/\u{301}b").tokens == ["a", "\u{301}b"])
        #expect(try JSONPointer(parsing: "/~0\u{301}").tokens == ["~\u{301}"])
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/~\u{301}") }
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/a~") }
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "a") }
    }

    /// Equal, hashed and ordered exactly as arrays of tokens compare: token by token, array
    /// indices by number, strings by canonical equivalence, a prefix first; across the forms too.
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
                if l == r { #expect(l.hashValue == r.hashValue) }
            }
        }
        #expect(JSONPointer(tokens: ["é"]) == JSONPointer(tokens: ["e\u{301}"]))
        #expect(JSONPointer(tokens: ["cases", "2"]) < JSONPointer(tokens: ["cases", "10"]))
        // Canonically equal, one 64 bytes escaped (text), the other 65 (tokens).
        let composed = String(repeating: "a", count: 61) + "é"
        let decomposed = String(repeating: "a", count: 61) + "e\u{301}"
        let (text, tokens) = (JSONPointer(tokens: [composed]), JSONPointer(tokens: [decomposed]))
        #expect(text == tokens && text.hashValue == tokens.hashValue)
        #expect(Set([text, tokens]).count == 1)
    }
}
