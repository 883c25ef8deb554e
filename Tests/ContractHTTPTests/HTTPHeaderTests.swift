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
}
