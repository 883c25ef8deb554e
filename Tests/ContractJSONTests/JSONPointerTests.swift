import ContractJSON
import Testing

struct JSONPointerTests {
    /// The example document of RFC 6901, section 5.
    let document: JSONValue = [
        "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8,
    ]

    @Test(arguments: [
        ("", nil), ("/foo", nil), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3), ("/g|h", 4),
        ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
    ] as [(String, JSONValue?)])
    func resolvesTheRFCExamples(_ text: String, _ expected: JSONValue?) throws {
        let pointer = try JSONPointer(parsing: text)
        let resolved = try document.resolve(pointer)
        if let expected { #expect(resolved == expected) }
        #expect(pointer.description == text, "round trip")
    }

    @Test(arguments: [
        ("#", ""), ("#/foo", "/foo"), ("#/foo/0", "/foo/0"), ("#/a~1b", "/a~1b"), ("#/c%25d", "/c%d"), ("#/k%22l", "/k\"l"),
        ("#/%20", "/ "), ("#/m~0n", "/m~0n"),
    ])
    func parsesURIFragments(_ fragment: String, _ expected: String) throws {
        let pointer = try JSONPointer(uriFragment: fragment)
        #expect(pointer.description == expected)
        #expect(try JSONPointer(uriFragment: pointer.uriFragment) == pointer)
    }

    @Test func rejectsMalformedPointers() {
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "foo") }
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/a~2") }
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/a~") }
        #expect(throws: JSONPointerError.self) { try JSONPointer(uriFragment: "#/%zz") }
    }

    @Test func explainsWhatDoesNotResolve() {
        func message(_ text: String) -> String? {
            do {
                _ = try document.resolve(JSONPointer(parsing: text))
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message("/nope") == "no member 'nope' in the object at ''")
        #expect(message("/foo/2") == "index 2 is out of bounds for the array of 2 at '/foo'")
        #expect(message("/foo/01") == "'01' is not an array index, at '/foo'")
        #expect(message("/foo/-") == "'-' is not an array index, at '/foo'")
        #expect(message("/a~1b/x") == "cannot descend into the integer at '/a~1b' with 'x'")
    }

    @Test func ordersIndicesNumerically() throws {
        let pointers = try ["/a/10", "/a/2", "/a", "/b/0"].map { try JSONPointer(parsing: $0) }
        #expect(pointers.sorted().map(\.description) == ["/a", "/a/2", "/a/10", "/b/0"])
    }
}
