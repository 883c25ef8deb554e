@testable import ContractVerifier
import TestSupport
import Testing

/// A server that echoes what it received inside a JSON string escapes the JSON a second time
/// (httpbin's `data`, debug endpoints, error messages quoting the payload), and one that quotes
/// that again a third: `Secrets` masks an echo escaped to any depth, mixed with the other forms.
struct SecretEscapeDepthTests {
    /// Every character JSON escaping changes, and a `/` some escapers escape.
    static let token = #"Zq9-SeCrEt-Val"ue/42\end"#
    let secrets = Secrets([Self.token])

    /// `text` as the body of a JSON string: `\` and `"` escaped, `/` too when `solidus`.
    static func escaped(_ text: String, solidus: Bool = false) -> String {
        var escaped = text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        if solidus { escaped = escaped.replacing("/", with: "\\/") }
        return escaped
    }

    /// The token escaped `depth` times, as a server echoing a body inside a string that many times writes it.
    static func echo(depth: Int, solidus: Bool) -> String {
        var text = #"{"t":"\#(escaped(token))"}"#
        for _ in 1..<max(1, depth) { text = escaped(text, solidus: solidus) }
        return text
    }

    @Test(arguments: 1...8, [false, true])
    func anEchoEscapedAnyNumberOfTimesIsMasked(depth: Int, solidus: Bool) {
        let echo = Self.echo(depth: depth, solidus: solidus)
        let masked = secrets.redact(#"{"data":"\#(echo)","n":1}"#)
        #expect(!masked.contains("SeCrEt"), "\(masked)")
        #expect(!masked.contains("ue/42") && !masked.contains(#"ue\/42"#) && !masked.contains(#"ue\\\/42"#), "\(masked)")
        #expect(masked.contains("***"))
    }

    /// The example a server really sent: the body echoed once inside a string.
    @Test func httpbinsDataMemberIsMasked() {
        let secrets = Secrets([#"Zq9-SeCrEt-Val"ue/42"#])
        #expect(secrets.redact(#"{"data": "{\"t\":\"Zq9-SeCrEt-Val\\\"ue/42\"}"}"#) == #"{"data": "{\"t\":\"***\"}"}"#)
    }

    /// Deep escaping mixed with the `\u` form and with percent-encoding of the other characters.
    @Test func deepEscapesMixWithOtherForms() {
        let secrets = Secrets([#"ab"cd/ef"#])
        #expect(secrets.redact(#"x ab\\\u0022cd\\\/ef y"#) == "x *** y")
        #expect(secrets.redact(#"x ab\\\\\\\"cd%2Fef y"#) == "x *** y")
        #expect(secrets.redact(#"x ab\\\\\\\\\\\\\\\"cd/ef y"#) == "x *** y", "15 backslashes: escaped four times")
    }

    /// Percent-encoding applied again (a URL inside a URL), after a JSON escape, and numeric
    /// references of any case, padding or character: the forms a base64-like token comes back in.
    @Test(arguments: [
        "Ab%252Bc%252FDe%253DfGh",  // percent-encoded twice
        "Ab%25252Bc%25252FDe%25253DfGh",  // three times
        "Ab%2Bc%5C%2FDe%3DfGh",  // `\/` from a JSON writer, then percent-encoded
        "Ab%2Bc%255C%252FDe%3DfGh",  // the same, with the escape percent-encoded twice
        "Ab&#X2B;c&#x2f;De&#x3D;fGh",  // upper-case X, mixed-case digits
        "Ab&#0000043;c&#047;De&#61;fGh",  // padded decimal references
        "&#65;b+c/D&#101;=f&#x47;h",  // letters as references
        #"Ab\u00252Bc\u00252FDe\u00253DfGh"#,  // percent-encoded, then the `%` JSON-escaped
    ])
    func mixedAndRepeatedEncodingsAreMasked(_ echo: String) {
        let secrets = Secrets(["Ab+c/De=fGh"])
        #expect(secrets.redact("next=\(echo)&x=1") == "next=***&x=1", "\(echo)")
    }

    /// A secret that holds `%25` itself: percent-encoded once it is `%2525`, which also reads as
    /// a `%` encoded twice; every reading is followed, so both encodings are masked.
    @Test func aSecretHoldingPercentTwentyFiveIsMaskedEncoded() {
        let secrets = Secrets(["Pass%25wordXYZ"])
        #expect(secrets.redact("x Pass%25wordXYZ y") == "x *** y")
        #expect(secrets.redact("x Pass%2525wordXYZ y") == "x *** y", "encoded once")
        #expect(secrets.redact("x Pass%252525wordXYZ y") == "x *** y", "encoded twice")
        #expect(secrets.redact("x Pass%25wordXYZ%2 y") == "x ***%2 y")
    }

    /// Many percent signs and encoded backslashes cost one pass each, as plain backslashes do:
    /// runs of 75,000 and of 300,000, in this thread's CPU time.
    @Test func longRunsOfEncodedBackslashesAndPercentsAreLinear() {
        let secrets = Secrets(["Ab\"c/De=fGh"])
        let growth = Growth.ratio(size: 75_000) { count in
            let encoded = String(repeating: "%5C", count: count)
            let percents = "%" + String(repeating: "25", count: count)
            let texts = ["x" + encoded + "Ab" + encoded + "y", "x Ab" + encoded + "%22c/De=fGh y", "x" + percents + "41 Ab" + percents + "22c/De=fGh"]
            var masked: [String] = []
            let cost = Growth.cpuSeconds { masked = texts.map(secrets.redact) }
            #expect(masked[0] == texts[0])
            #expect(masked[1] == "x *** y")
            #expect(masked[2] == "x" + percents + "41 ***", "a quote encoded \(count + 1) times")
            return cost
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the runs cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }

    /// A long secret (a JWT runs to hundreds of characters) and a body of cut marks each followed
    /// by a run of backslashes, or one cut and a long run of them: the run is scanned once per cut,
    /// not once per character of the secret, and only the first and last cut marks are looked at.
    /// The secret and the body grow together (a secret of 200 and 800 characters, 2,500 and 10,000
    /// cut marks, one cut before 75,000 and 300,000 backslashes), in this thread's CPU time: a
    /// scan of the run per character of the secret grows with their product, 16 times.
    @Test func cutMarksBeforeRunsCostLittleWithALongSecret() {
        func secret(_ length: Int) -> String { (0..<length).map { index in String(UnicodeScalar(UInt8(65 + index % 26))) }.joined() }
        let growth = Growth.ratio(size: 1) { scale in
            let secrets = Secrets([secret(200 * scale)])
            let texts = [
                String(repeating: "…" + String(repeating: "\\", count: 30), count: 2_500 * scale),
                String(repeating: "…" + String(repeating: "%5C", count: 10), count: 2_500 * scale),
                "…" + String(repeating: "\\", count: 75_000 * scale) + "u0041x",
            ]
            var masked: [String] = []
            let cost = Growth.cpuSeconds { masked = texts.map(secrets.redact) }
            #expect(masked == texts)
            return cost
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the secret and the cut marks cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
        // A part of the secret after a cut is still masked, at a run too.
        let long = secret(800)
        let secrets = Secrets([long])
        #expect(secrets.redact("…" + String(long.dropFirst(5))) == "…***")
        #expect(secrets.redact("…\\\\u0046" + String(long.dropFirst(6))) == "…***")
    }

    /// A secret that holds a backslash: escaped n times it is 2^n backslashes, still one run.
    @Test func aBackslashInTheSecretIsARunToo() {
        let secrets = Secrets([#"left\right"#])
        for depth in 0...6 {
            let run = String(repeating: "\\", count: 1 << depth)
            #expect(secrets.redact("x left\(run)right y") == "x *** y", "\(depth)")
        }
        #expect(secrets.redact("x leftright y") == "x leftright y", "no backslash is not the secret")
    }

    /// Ordinary text with backslashes is not mistaken for a secret.
    @Test func nearMissesWithBackslashesAreLeftAlone() {
        let secrets = Secrets([#"ab"cd"#])
        #expect(secrets.redact(#"ab\\cd and ab\\\"ce"#) == #"ab\\cd and ab\\\"ce"#)
    }

    /// A clip that did not know the secret cuts inside a deep escape: what is left either side is masked.
    @Test func aCutInsideADeepRunIsMasked() {
        let secrets = Secrets([#"Zq9-SeCrEt-Val"ue/42"#])
        #expect(secrets.redact(#"found 'Zq9-SeCrEt-Val\\\…'"#) == "found '***…'")
        #expect(secrets.redact(#"…\\"ue/42 rest"#) == "…*** rest")
        #expect(secrets.redact(#"…\\\\\\\"ue/42 rest"#) == "…*** rest")
    }

    /// Excerpts around any offset of a body holding a deep echo show no piece of the secret, however
    /// long its runs of backslashes make it.
    @Test func excerptsOfADeepEchoShowNoPiece() {
        for depth in [2, 5, 8] {
            let body = Array(#"{"n":1,"data":"\#(Self.echo(depth: depth, solidus: true))","q":2}"#.utf8)
            for offset in stride(from: 0, to: body.count, by: 5) {
                let excerpt = BodyExcerpt.around(body, offset: offset, secrets: secrets)
                #expect(!excerpt.contains("SeCrEt") && !excerpt.contains("Val") && !excerpt.contains("42"), "depth \(depth), offset \(offset): \(excerpt)")
            }
        }
    }

    /// A run of backslashes costs one pass: positions inside a run start no search. Runs of
    /// 250,000 and of a million, in this thread's CPU time.
    @Test func aLongRunOfBackslashesIsLinear() {
        let growth = Growth.ratio(size: 250_000) { count in
            let run = String(repeating: "\\", count: count)
            let text = "x" + run + #"Zq9-SeCrEt-Val"# + run + "y"
            let echo = "x " + #"Zq9-SeCrEt-Val"# + run + #""ue/42"# + run + #"\end"# + " y"
            var masked: [String] = []
            let cost = Growth.cpuSeconds { masked = [text, echo].map(secrets.redact) }
            #expect(masked[0] == text, "not an echo: the token goes on differently")
            #expect(masked[1] == "x *** y")
            return cost
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the run costs \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }
}
