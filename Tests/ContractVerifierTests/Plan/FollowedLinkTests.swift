import Testing

@testable import ContractVerifier

/// Which links a flow follows, and to where: on the server under test only, however the link is
/// written.
struct FollowedLinkTests {
    let base = "http://127.0.0.1:8080/api"

    func resolve(_ link: String, referrer: String? = nil) -> String {
        switch FollowedLink.resolve(link, baseURL: base, referrer: referrer) {
        case .success(let url): url
        case .failure(let refusal): "refused: " + refusal.message
        }
    }

    @Test(arguments: [
        // Absolute, on the same origin (scheme and host in any case, the default port written or not).
        ("http://127.0.0.1:8080/api/items?cursor=b", "http://127.0.0.1:8080/api/items?cursor=b"),
        ("HTTP://127.0.0.1:8080/other", "http://127.0.0.1:8080/other"),
        // An absolute path is on the base URL's origin, not under its path.
        ("/api/items?cursor=b", "http://127.0.0.1:8080/api/items?cursor=b"),
        ("/v2/items", "http://127.0.0.1:8080/v2/items"),
        // A fragment is never sent; what a URL cannot hold is encoded.
        ("/items#top", "http://127.0.0.1:8080/items"),
        ("/items?q=a b&name=caf\u{E9}", "http://127.0.0.1:8080/items?q=a%20b&name=caf%C3%A9"),
        ("/items?q=a%20b", "http://127.0.0.1:8080/items?q=a%20b"),
        // A relative reference without the request that gave it: against the base URL as a folder.
        ("items?cursor=b", "http://127.0.0.1:8080/api/items?cursor=b"),
        ("?cursor=b", "http://127.0.0.1:8080/api?cursor=b"),
        // A path with a colon in it is not a scheme.
        ("/a:b", "http://127.0.0.1:8080/a:b"),
    ])
    func linksOnTheServerAreFollowed(_ link: String, _ expected: String) {
        #expect(resolve(link) == expected)
    }

    @Test func aRelativeLinkResolvesAgainstTheRequestThatGaveIt() {
        let referrer = "http://127.0.0.1:8080/api/items?limit=2"
        #expect(resolve("?limit=2&cursor=b", referrer: referrer) == "http://127.0.0.1:8080/api/items?limit=2&cursor=b")
        #expect(resolve("page/2", referrer: referrer) == "http://127.0.0.1:8080/api/page/2")
        #expect(resolve("/items", referrer: referrer) == "http://127.0.0.1:8080/items")
        // A fragment alone is the page that gave it, its query included (RFC 3986, 5.2.2).
        #expect(resolve("#top", referrer: referrer) == referrer)
        #expect(resolve("#top") == "http://127.0.0.1:8080/api")
    }

    @Test func theBaseURLsCredentialsGoWithTheLinkNotTheLinksOwn() {
        let withUser = FollowedLink.resolve("http://127.0.0.1:8080/x", baseURL: "http://u:p@127.0.0.1:8080", referrer: nil)
        #expect(withUser == .success("http://u:p@127.0.0.1:8080/x"))
        let ownUser = resolve("http://attacker:pw@127.0.0.1:8080/x")
        #expect(ownUser.hasPrefix("refused: "))
        #expect(ownUser.contains("carries user information"))
        #expect(!ownUser.contains("attacker:pw"))
    }

    @Test(arguments: [
        "http://127.0.0.1:9090/api/items",  // another port
        "https://127.0.0.1:8080/api/items",  // another scheme
        "http://evil.example/api/items",  // another host
        "//evil.example/api/items",  // a network-path reference
        "http://127.0.0.1.evil.example:8080/x",
        "http://127.0.0.1:8080@evil.example/x",
        "file:///etc/passwd",
        "javascript:alert(1)",
    ])
    func linksElsewhereAreRefusedNamingTheServer(_ link: String) {
        let outcome = resolve(link)
        #expect(outcome.hasPrefix("refused: "), "\(link) → \(outcome)")
    }

    @Test func anotherOriginIsNamedWithTheServerUnderTest() {
        #expect(resolve("http://evil.example/x") == """
            refused: the link 'http://evil.example/x' is not on the server under test (http://127.0.0.1:8080); \
            a link is followed only on the base URL's scheme, host and port
            """)
    }

    @Test(arguments: ["", "/items\r\nX-Injected: 1", "/items\u{0}", "/items\u{7F}"])
    func emptyLinksAndControlCharactersAreRefused(_ link: String) {
        #expect(resolve(link).hasPrefix("refused: "))
    }

    @Test func theDefaultPortIsThePortNotWritten() {
        #expect(FollowedLink.resolve("https://api.example:443/x", baseURL: "https://API.example", referrer: nil) == .success("https://API.example/x"))
        #expect(FollowedLink.resolve("http://[::1]:8080/x", baseURL: "http://[::1]:8080", referrer: nil) == .success("http://[::1]:8080/x"))
        #expect(FollowedLink.resolve("http://[::2]:8080/x", baseURL: "http://[::1]:8080", referrer: nil) != .success("http://[::1]:8080/x"))
    }
}
