import ContractModel
@testable import ContractVerifier
import TestSupport
import Testing

/// `Secrets` masks every echo of a secret in the forms servers use, and what a cut leaves of one.
struct SecretsTests {
    /// A secret with every character that encodings treat specially.
    static let token = #"Qx7"sec/RET+&=\ zz9"#
    let secrets = Secrets([Self.token])

    @Test(arguments: [
        #"Qx7"sec/RET+&=\ zz9"#,  // raw
        #"Qx7\"sec\/RET+&=\\ zz9"#,  // JSON-escaped, solidus too
        #"Qx7\"sec/RET+&=\\ zz9"#,  // JSON-escaped
        "Qx7%22sec%2FRET%2B%26%3D%5C%20zz9",  // percent-encoded
        "Qx7%22sec%2fRET%2b%26%3d%5c%20zz9",  // lower-case hex digits
        "Qx7%22sec%2FRET%2B%26%3D%5C+zz9",  // form-encoded
        #"Qx7"sec~1RET+&=\ zz9"#,  // a JSON Pointer token
        #"Qx7&quot;sec/RET+&amp;=\ zz9"#,  // XML entities
        #"Qx7\u0022sec\u002FRET+&=\u005c zz9"#,  // JSON \u escapes
        "%51%78%37%22%73%65%63%2F%52%45%54%2B%26%3D%5C%20%7A%7A%39",  // every byte encoded
        "Qx7&#x22;sec&#x2F;RET&#x2B;&amp;&#x3D;&#x5C;&#x20;zz9",  // Python's html.escape style, hex references
        "Qx7&#34;sec&#47;RET&#43;&#38;&#61;&#92;&#32;zz9",  // Go's html.EscapeString style, decimal references
        "Qx7&#034;sec/RET+&#038;=\\ zz9",  // PHP's leading zero
    ])
    func everyEncodingIsMasked(_ echo: String) {
        #expect(secrets.redact("before \(echo) after") == "before *** after")
    }

    @Test func longerSecretsAreMaskedWhole() {
        let secrets = Secrets(["abc", "abcdef", ""])
        #expect(secrets.redact("x abcdef y abc") == "x *** y ***")
    }

    @Test func nearMissesAreNotMasked() {
        #expect(secrets.redact("Qx7 sec/RET") == "Qx7 sec/RET")
        #expect(secrets.redact("%2x Qx7%2") == "%2x Qx7%2")
    }

    /// A cut from a clip that did not know the secret (the validator's messages) leaves a prefix
    /// before `…` or a suffix after it; both are masked from two characters on.
    @Test func whatACutLeavesIsMasked() {
        let characters = Array(Self.token)
        for kept in 2..<characters.count {
            let prefix = String(characters.prefix(kept))
            #expect(secrets.redact("found string 'aaaa\(prefix)…'") == "found string 'aaaa***…'", "\(kept)")
            let suffix = String(characters.suffix(kept))
            #expect(secrets.redact("…\(suffix)\" tail") == "…***\" tail", "\(kept)")
        }
        #expect(secrets.redact("a Q…") == "a Q…", "one character alone is not masked")
    }

    @Test func cutsInsideAnEncodedCharacterAreMasked() {
        #expect(secrets.redact("x Qx7%22sec%2…") == "x ***…")
        #expect(secrets.redact("…2FRET%2B%26%3D%5C+zz9 y") == "…*** y")
        #expect(secrets.redact("…sec/RE…") == "…***…", "a middle cut on both sides")
    }

    @Test func clippingMasksFirst() {
        let padded = String(repeating: "a", count: 65) + Self.token
        let clipped = secrets.clip(padded, to: 80)
        #expect(clipped == String(repeating: "a", count: 65) + "***")
        #expect(secrets.clip(String(repeating: "b", count: 100) + Self.token, to: 80) == String(repeating: "b", count: 80) + "…")
    }

    /// The excerpt around an offset masks an echo that the window cuts, whichever side.
    @Test func excerptsNeverCutASecret() {
        for padding in 0..<100 {
            let body = Array(("{\"n\":1,\"p\":\"" + String(repeating: "x", count: padding) + Self.token + "\",\"q\":2}").utf8)
            for offset in stride(from: 0, to: body.count, by: 7) {
                let excerpt = BodyExcerpt.around(body, offset: offset, secrets: secrets)
                for length in 3...Self.token.count {
                    for start in 0...(Self.token.count - length) {
                        let piece = String(Array(Self.token)[start..<(start + length)])
                        guard piece.count >= 6 else { continue }
                        #expect(!excerpt.contains(piece), "padding \(padding), offset \(offset): \(excerpt)")
                    }
                }
            }
        }
    }

    /// Many near misses, each starting a partial echo: matching gives up on each within the
    /// secret's length, so this is linear. 25,000 and 100,000 of them, in this thread's CPU time.
    @Test func nearMissesInALargeTextAreLeftAlone() {
        let growth = Growth.ratio(size: 25_000) { count in
            let text = String(repeating: "Qx7\"sec/RE ", count: count) + Self.token
            var masked = ""
            let cost = Growth.cpuSeconds { masked = secrets.redact(text) }
            #expect(masked.hasSuffix(" ***") && masked.utf8.count == text.utf8.count - Self.token.utf8.count + 3)
            return cost
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the text cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }

    /// A server may send `…` itself, as often as it likes: each is ruled out by a byte or two.
    /// 10,000 and 40,000 of them, in this thread's CPU time.
    @Test func manyCutMarksCostLittle() {
        let growth = Growth.ratio(size: 10_000) { count in
            let text = String(repeating: "a…Q…", count: count) + "Qx7\"sec…"
            var masked = ""
            let cost = Growth.cpuSeconds { masked = secrets.redact(text) }
            #expect(masked.hasSuffix("a…Q…***…"))
            return cost
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the cut marks cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }

    /// A secret shorter than `Secrets.wholeValueLength` (`TOKEN=h`) is masked wherever it stands
    /// as a value of its own, in every form, and left alone inside a word.
    static let shortSecret = Secrets(["h"])

    @Test(arguments: [
        ("h", "***"),  // a whole header value
        ("http://127.0.0.1:8080/items/h?t=h&u=1#h", "http://127.0.0.1:8080/items/***?t=***&u=1#***"),  // path, query and fragment values
        (#"{"token":"h","list":["h", "x"]}"#, #"{"token":"***","list":["***", "x"]}"#),  // JSON strings
        ("/items/h/name: expected integer, found string 'h'", "/items/***/name: expected integer, found string '***'"),  // pointer token, quoted value
        ("Bearer h", "Bearer ***"),  // a word
        ("x-token: h; y=h,z", "x-token: ***; y=***,z"),  // separated values
        ("t=%22h%22&u=%68", "t=%22***%22&u=***"),  // percent-encoded, the echo and what is around it
        (#"{"k":"\"h\"","n":"\nh","u":"\u0022h"}"#, #"{"k":"\"***\"","n":"\n***","u":"\u0022***"}"#),  // JSON escapes around it
        ("/a~1h/b~0h", "/a~1***/b~0***"),  // pointer tokens escaping `/` and `~`
        ("&quot;h&quot;", "&quot;***&quot;"),  // entities around it
        ("…h and h…", "…*** and ***…"),  // a cut mark may have removed a boundary
        ("h%41", "***%41"),  // any escape after it is a boundary
    ])
    func aShortSecretIsMaskedWhereItIsAValue(_ text: String, _ masked: String) {
        #expect(Self.shortSecret.redact(text) == masked)
    }

    @Test(arguments: [
        "http://example.com/path",  // the `h` of `http` and of `path`
        "the hash is hhh",
        "h1 h_2 2h éh",  // next to a digit, `_`, a letter outside ASCII
        #"%68ello and \u0068ello"#,  // an encoded `h` inside a word is inside a word
        "h\u{301}",  // a combining mark makes it another character
        "%41h",  // an encoded letter before it
    ])
    func aShortSecretIsLeftAloneInsideAWord(_ text: String) {
        #expect(Self.shortSecret.redact(text) == text)
    }

    @Test func aShortSecretCutByAClipIsMaskedWhereItStartsAValue() {
        let secrets = Secrets(["abc"])
        #expect(secrets.redact("found 'ab…'") == "found '***…'")
        #expect(secrets.redact("the grab…") == "the grab…", "inside a word")
        #expect(secrets.redact("…bc' found") == "…***' found")
        #expect(secrets.redact("…bcd found") == "…bcd found", "inside a word")
    }

    @Test func fromFourCharactersASecretIsMaskedEverywhere() {
        #expect(Secrets.wholeValueLength == 4, "docs/SECURITY.md states this length")
        #expect(Secrets(["abcd"]).redact("xabcdx abcd") == "x***x ***")
        #expect(Secrets(["abc"]).redact("xabcx abc") == "xabcx ***")
    }

    /// Body excerpts and hexadecimal bytes decide on the body itself, not on the window.
    @Test func excerptsMaskAShortSecretAsAValueOnly() {
        let body = Array(#"{"help": "https://example.com/h", "token": "h"}"#.utf8)
        let excerpt = BodyExcerpt.around(body, offset: 30, secrets: Self.shortSecret)
        #expect(excerpt == #"{"help": "https://example.com/***", "token": "***"}"#)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(ShownText.escaped("a\u{1B}]52;c;x\u{7}b\nPASS\u{9B}") == "a\\u{1B}]52;c;x\\u{7}b\\u{A}PASS\\u{9B}")
        #expect(ShownText.escaped("plain é") == "plain é")
        // What reorders a line or starts another, as the diff shows them too.
        #expect(ShownText.escaped("PASS\u{202E}LIAF\u{2028}x") == "PASS\\u{202E}LIAF\\u{2028}x")
    }

    @Test func baseURLCredentialsInEveryForm() {
        let parts = Set(BaseURL.secretParts(ofUserInformation: "ghp_Zq9XkP2mWv7:p%40ss"))
        #expect(parts.isSuperset(of: ["ghp_Zq9XkP2mWv7:p%40ss", "ghp_Zq9XkP2mWv7:p@ss", "p@ss", "ghp_Zq9XkP2mWv7", "Z2hwX1pxOVhrUDJtV3Y3OnBAc3M="]))
        #expect(BaseURL.shown("https://u:secret@host/x") == "https://***@host/x")
        #expect(BaseURL.shown("https://host/x") == "https://host/x")
    }

    @Test func credentialHeadersAreKnownByName() {
        for name in ["Authorization", "proxy-authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "X-Vault-Token", "Ocp-Apim-Subscription-Key"] {
            #expect(CredentialHeaders.isCredential(name), "\(name)")
        }
        for name in ["Accept", "X-Request-Id", "Content-Type", "X-Idempotency-Key"] {
            #expect(!CredentialHeaders.isCredential(name), "\(name)")
        }
        #expect(Set(CredentialHeaders.secretParts(of: "Bearer abc123def")) == ["Bearer abc123def", "abc123def"])
        let cookie = Set(CredentialHeaders.secretParts(of: "lang=en; sid=0123456789"))
        #expect(cookie.isSuperset(of: ["lang=en; sid=0123456789", "0123456789"]) && !cookie.contains("en") && !cookie.contains("lang=en"))
        #expect(CredentialHeaders.secretParts(of: #"Token token="abc123def""#).contains("abc123def"))
        // Any scheme a token allows, after any white space.
        #expect(CredentialHeaders.secretParts(of: "OAuth2 OauthSecret99").contains("OauthSecret99"))
        #expect(CredentialHeaders.secretParts(of: "JWT_Bearer JwtSecret99").contains("JwtSecret99"))
        #expect(CredentialHeaders.secretParts(of: "Bearer\tTabSecret123").contains("TabSecret123"))
        let aws = CredentialHeaders.secretParts(of: "AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE1/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=fe5f80f77d5fa3beca038a248ff027")
        #expect(aws.contains("AKIAEXAMPLE1/20260101/us-east-1/s3/aws4_request") && aws.contains("fe5f80f77d5fa3beca038a248ff027"))
    }
}
