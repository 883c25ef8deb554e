import ContractHTTP
import Testing

/// Header names compare ignoring ASCII case only, without building lowercased copies.
struct HTTPHeaderTests {
    @Test(arguments: [
        ("Content-Type", "content-type", true), ("ETAG", "etag", true), ("X-Rate-Limit", "x-rate-limit", true),
        ("Content-Type", "Content-Typ", false), ("Content-Typ", "Content-Type", false), ("", "", true),
        // Only letters fold: '@' (0x40) and '`' (0x60) differ by the same bit as 'A' and 'a'.
        ("X@", "X`", false), ("X[", "X{", false), ("Ä", "ä", false),
    ])
    func namesCompareIgnoringASCIICase(name: String, other: String, same: Bool) {
        #expect(HTTPHeader(name, "v").hasName(other) == same)
    }

    @Test func fieldsKeepTheirOrderRepeatsAndSpelling() {
        let headers: HTTPHeaders = [HTTPHeader("Set-Cookie", "a=1"), HTTPHeader("Content-Type", "application/json"), HTTPHeader("set-cookie", "b=2"),
            HTTPHeader("X-Empty", ""), HTTPHeader("X-Ünicode", "naïve")]
        #expect(headers.count == 5)
        #expect(headers.map(\.name) == ["Set-Cookie", "Content-Type", "set-cookie", "X-Empty", "X-Ünicode"])
        #expect(headers.values(of: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.value(of: "content-type") == "application/json")
        #expect(headers.value(of: "x-empty") == "")
        #expect(headers.value(of: "X-Ünicode") == "naïve")
        #expect(headers.value(of: "Content-Typ") == nil)
        #expect(headers[4] == HTTPHeader("X-Ünicode", "naïve"))
        #expect(HTTPHeaders(Array(headers)) == headers)
        #expect(HTTPHeaders().isEmpty)
    }

    @Test func repeatedNamesAreFoundInAnyCase() {
        #expect(!HTTPHeaders([HTTPHeader("Content-Type", "a"), HTTPHeader("Content-Length", "1"), HTTPHeader("ETag", "x")]).hasRepeatedNames)
        #expect(HTTPHeaders([HTTPHeader("Content-Type", "a"), HTTPHeader("ETag", "x"), HTTPHeader("content-TYPE", "b")]).hasRepeatedNames)
        #expect(HTTPHeaders([HTTPHeader("Set-Cookie", "a"), HTTPHeader("Set-Cookie", "a")]).hasRepeatedNames)
        #expect(!HTTPHeaders([HTTPHeader("X-A", "1"), HTTPHeader("X-B", "1")]).hasRepeatedNames)
        #expect(!HTTPHeaders().hasRepeatedNames && !HTTPHeaders([HTTPHeader("A", "1")]).hasRepeatedNames)
    }
}
