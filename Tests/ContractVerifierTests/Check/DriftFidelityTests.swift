import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// Drift that a check reading only what the contract names would pass: a member name sent twice,
/// a byte order mark before JSON, a single-value header sent twice, bytes that are not the UTF-8
/// the response declares, and a body checked against the schema of another status. Each against a
/// real server on loopback that sends it, and the same server without the drift, which passes.
struct DriftFidelityTests {
    static let secret = "s3cr3t-drift-token"

    static let contracts: [String: String] = [
        "schemas/session.json": """
            { "type": "object", "required": ["token", "authenticated"],
              "properties": { "token": { "type": "string" }, "authenticated": { "type": "boolean" } } }
            """,
        "drift.json": """
            {
              "id": "drift",
              "request": { "method": "GET", "path": "/{what}", "headers": { "Authorization": "Bearer ${env:TOKEN}" } },
              "cases": [
                { "name": "duplicate-keys", "request": { "pathParams": { "what": "session" } },
                  "response": { "status": 200, "schema": { "$ref": "schemas/session.json" } } },
                { "name": "nested-duplicate", "request": { "pathParams": { "what": "nested" } },
                  "response": { "status": 200, "schema": { "type": "object" } } },
                { "name": "unchecked-json", "request": { "pathParams": { "what": "unchecked" } },
                  "response": { "status": 200 } },
                { "name": "bom", "request": { "pathParams": { "what": "bom" } },
                  "response": { "status": 200, "schema": { "$ref": "schemas/session.json" } } },
                { "name": "content-type-twice", "request": { "pathParams": { "what": "type" } },
                  "response": { "status": 200, "headers": { "Content-Type": { "pattern": "^application/json" } },
                                "schema": { "$ref": "schemas/session.json" } } },
                { "name": "matched-header-twice", "request": { "pathParams": { "what": "matched" } },
                  "response": { "status": 200, "headers": { "X-Rate-Limit": { "present": true } } } },
                { "name": "lists", "request": { "pathParams": { "what": "lists" } },
                  "response": { "status": 200, "headers": { "Cache-Control": { "pattern": "max-age" }, "Set-Cookie": { "present": true } },
                                "schema": { "$ref": "schemas/session.json" } } },
                { "name": "text-not-utf8", "request": { "pathParams": { "what": "text" } },
                  "response": { "status": 200, "text": { "pattern": "^hello" } } },
                { "name": "status-only-not-utf8", "request": { "pathParams": { "what": "plain" } },
                  "response": { "status": 200 } },
                { "name": "wrong-status", "request": { "pathParams": { "what": "me" } },
                  "response": { "status": 200,
                                "schema": { "type": "object", "required": ["id", "name", "email", "roles", "plan"],
                                            "properties": { "id": { "type": "integer" } } } } }
              ]
            }
            """,
    ]

    static let session = #"{"token": "x", "authenticated": true}"#
    static let me = #"{"id": 7, "name": "Ann", "email": "ann@example.com", "roles": [], "plan": "free"}"#
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The same routes with and without their drift.
    static func route(drift: Bool) -> @Sendable (String, String) -> LoopbackHTTPServer.Behavior {
        { _, target in
            func json(_ text: String, _ headers: [(String, String)] = [("Content-Type", "application/json")]) -> LoopbackHTTPServer.Behavior {
                .respond(status: 200, headers: headers, body: Array(text.utf8))
            }
            switch target {
            case "/session":
                // The first token is the secret the request sent: it must show masked.
                return json(drift ? #"{"token": "\#(secret)", "authenticated": true, "token": "y"}"# : session)
            case "/nested":
                // Names repeated only inside strings, or differing only in normalization, are not
                // repeats; the one in the second item is.
                let items = drift
                    ? #"[{"id": 1}, {"id": 2, "tags": ["a"], "id": 3}]"#
                    : #"[{"id": 1}, {"id": 2, "tags": ["a"], "ids": 3}]"#
                return json(#"{"note": "\"id\": 1, \"id\": 2", "caf\#u{E9}": 1, "cafe\#u{301}": 2, "items": \#(items)}"#)
            case "/unchecked":
                return json(drift ? #"{"a": 1, "b": {"c": 1}, "a": {"d": 2}}"# : #"{"a": 1, "b": {"c": 1}}"#)
            case "/bom":
                return .respond(status: 200, headers: [("Content-Type", "application/json")], body: (drift ? bom : []) + Array(session.utf8))
            case "/type":
                let types = drift ? [("Content-Type", "application/json"), ("Content-Type", "text/html; charset=utf-8")] : [("Content-Type", "application/json")]
                return json(session, types)
            case "/matched":
                let limits = drift ? [("X-Rate-Limit", "100"), ("X-Rate-Limit", "5000")] : [("X-Rate-Limit", "100")]
                return .respond(status: 200, headers: limits, body: [])
            case "/lists":
                // List fields and cookies repeat by design; the same Content-Type twice (as some
                // proxies send it) reads the same whichever a client takes. None of it is drift.
                return json(session, [
                    ("Content-Type", "application/json"), ("Content-Type", "application/json"),
                    ("Set-Cookie", "a=1; Path=/"), ("Set-Cookie", "b=2; Path=/"),
                    ("Cache-Control", "no-store"), ("Cache-Control", "max-age=0"), ("Vary", "Accept"), ("Vary", "Authorization"),
                    ("Content-Encoding", "identity"), ("Link", "</a>; rel=next"), ("Link", "</b>; rel=prev"),
                ])
            case "/text":
                return .respond(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array("hello ".utf8) + (drift ? [0xFF, 0x21] : [0x21]))
            case "/plain":
                // Text that is not JSON may start with a byte order mark (RFC 3629 §6): not drift.
                return .respond(status: 200, headers: [("Content-Type", "text/plain; charset=UTF-8")], body: bom + Array("gr\u{FC}n ".utf8) + (drift ? [0xC3, 0x28] : []))
            case "/me":
                return drift
                    ? .respond(status: 401, headers: [("Content-Type", "application/json")], body: Array(#"{"error": "unauthorized", "detail": "token expired"}"#.utf8))
                    : json(me)
            default:
                return .json(status: 404, #"{"error": "no route"}"#)
            }
        }
    }

    func run(drift: Bool) async throws -> (VerifyReport, String) {
        let server = try LoopbackHTTPServer(route: Self.route(drift: drift))
        var options = VerifyOptions(baseURL: server.baseURL)
        options.environment = ["TOKEN": Self.secret]
        options.http.timeout = .seconds(10)
        options.concurrency = 4
        let collector = VerifyRunTests.Collector()
        var console = ""
        let reporter = ConsoleReporter(style: .plain) { console += $0 }
        let report = try await Verifier.run(Fixtures.load(Self.contracts), options: options, reporters: [reporter, collector])
        return (report, console + collector.text)
    }

    func findings(_ report: VerifyReport, _ name: String) throws -> [Finding] {
        try #require(report.results.first { $0.name == "drift/\(name)" }).findings
    }

    @Test func theSameServerWithoutDriftPasses() async throws {
        let (report, output) = try await run(drift: false)
        for result in report.results {
            #expect(result.findings.isEmpty, "\(result.name): \(result.findings.map(\.message))")
        }
        #expect(report.total == 10 && report.passed == 10 && report.exitCode == 0, "\(output)")
    }

    @Test func aMemberNameSentTwiceIsAFindingWithBothPlacesAndValues() async throws {
        let (report, output) = try await run(drift: true)
        let found = try findings(report, "duplicate-keys")
        #expect(found.map(\.message) == [
            #"/token: expected each member name once per object (RFC 8259 §4, I-JSON RFC 7493 §2.3), found 'token' twice: "***" at line 1, column 2, then "y" at line 1, column 56; parsers disagree on which value a client reads"#,
        ])
        #expect(found.first?.kind == .body && found.first?.pointer == "/token")
        #expect(found.first?.excerpt?.contains(#""token": "y""#) == true)
        #expect(!output.contains(Self.secret))
    }

    @Test func repeatsAreFoundAtAnyDepthAndNowhereElse() async throws {
        let (report, _) = try await run(drift: true)
        let nested = try findings(report, "nested-duplicate")
        #expect(nested.map(\.message) == [
            "/items/1/id: expected each member name once per object (RFC 8259 §4, I-JSON RFC 7493 §2.3), found 'id' twice: 2 at line 1, column 79, then 3 at line 1, column 103; parsers disagree on which value a client reads",
        ])
        // A body the case does not check is still read for repeats when it says it is JSON.
        let unchecked = try findings(report, "unchecked-json")
        #expect(unchecked.map(\.message) == [
            #"/a: expected each member name once per object (RFC 8259 §4, I-JSON RFC 7493 §2.3), found 'a' twice: 1 at line 1, column 2, then {"d":2} at line 1, column 25; parsers disagree on which value a client reads"#,
        ])
    }

    @Test func aByteOrderMarkBeforeJSONIsAFinding() async throws {
        let (report, _) = try await run(drift: true)
        let found = try findings(report, "bom")
        #expect(found.map(\.message) == [
            "expected a JSON body without a byte order mark (RFC 8259 §8.1), found the bytes 0xEF 0xBB 0xBF (U+FEFF) before the first value; many JSON parsers reject it",
        ])
        #expect(found.first?.excerpt?.contains(#""authenticated": true"#) == true)
    }

    @Test func aSingleValueHeaderSentTwiceWithDifferentValuesIsAFinding() async throws {
        let (report, output) = try await run(drift: true)
        let contentType = try findings(report, "content-type-twice")
        #expect(contentType.map(\.message) == [
            "expected one 'Content-Type' field (a single-value field, RFC 9110 §8.3), found 2 with different values: 'application/json', 'text/html; charset=utf-8'",
        ])
        let matched = try findings(report, "matched-header-twice")
        #expect(matched.map(\.message) == [
            "expected one 'X-Rate-Limit' field (the contract checks its value), found 2 with different values: '100', '5000'",
        ])
        #expect(output.contains("- header: expected one 'Content-Type' field"))
        // Cookies, list fields and a repeat of the same value are not drift.
        let lists = try findings(report, "lists")
        #expect(lists.isEmpty, "\(lists.map(\.message))")
    }

    @Test func bytesThatAreNotTheDeclaredUTF8AreAFindingWhateverTheContractChecks() async throws {
        let (report, _) = try await run(drift: true)
        let text = try findings(report, "text-not-utf8")
        #expect(text.map(\.message) == [
            "expected UTF-8 text (the Content-Type 'text/plain; charset=utf-8' declares UTF-8), found 0xFF, which is not UTF-8, at line 1, column 7 (byte 6)",
        ])
        #expect(text.first?.excerpt?.hasPrefix("hello ") == true)
        let statusOnly = try findings(report, "status-only-not-utf8")
        #expect(statusOnly.map(\.message) == [
            "expected UTF-8 text (the Content-Type 'text/plain; charset=UTF-8' declares UTF-8), found 0xC3, which is not UTF-8, at line 1, column 7 (byte 9)",
        ])
    }

    @Test func aStatusNoExpectationCoversShowsTheBodyInsteadOfCheckingIt() async throws {
        let (report, output) = try await run(drift: true)
        let found = try findings(report, "wrong-status")
        #expect(found.map(\.message) == [
            "expected status 200, found 401 (the body was not checked: the contract describes the body of a 200 response)",
        ])
        #expect(found.first?.excerpt == #"{"error": "unauthorized", "detail": "token expired"}"#)
        #expect(!output.contains("missing required property"))
        #expect(!output.contains("the same at /, /"))
    }

    @Test func everyReportCarriesTheNewFindings() async throws {
        let (report, output) = try await run(drift: true)
        #expect(report.exitCode == 1)
        #expect(report.passed == 1, "only the lists case, which has no drift, passes")
        // JSON, JUnit and Markdown each carry the findings with their kind.
        #expect(output.contains(#""kind": "header""#) && output.contains(#""kind": "body""#))
        #expect(output.contains(#""pointer": "/token""#))
        #expect(output.contains(#"<failure message="expected one &apos;Content-Type&apos; field"#) && output.contains(#"type="header""#))
        #expect(output.contains("- header: expected one 'Content-Type' field (a single-value field, RFC 9110 §8.3)"))
        #expect(output.contains("expected a JSON body without a byte order mark"))
        #expect(!output.contains(Self.secret))
    }

    // MARK: The same checks on responses built by hand: edges of each rule

    /// The findings of a response to a case with this `response` object.
    func check(_ response: HTTPResponse, expecting expectation: String = #"{ "status": 200, "schema": { "type": "object" } }"#) throws -> [Finding] {
        let set = Fixtures.load(["one.json": """
            { "id": "one", "request": { "method": "GET", "path": "/o" }, "cases": [ { "name": "a", "response": \(expectation) } ] }
            """])
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
        let planned = try #require(try VerifyPlan(set, options: VerifyOptions(baseURL: "http://127.0.0.1:1")).cases.first)
        var checker = ResponseChecker(catalog: SchemaCatalog(set))
        checker.secrets = Secrets([Self.secret])
        return checker.check(response, against: planned.testCase.response, schema: planned.responseSchema, bindings: Bindings(environment: [:]))
    }

    func json(_ body: String, status: Int = 200, headers: [HTTPHeader] = [HTTPHeader("Content-Type", "application/json")]) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders(headers), body: Array(body.utf8))
    }

    @Test func namesCompareAsDecodedCodeUnitsNotAsNormalizedText() throws {
        // "a" and "\u0061" are one name; "é" and "e" + U+0301 are two (RFC 8259 §8.3).
        let found = try check(json(#"{"a": 1, "\u0061": 2, "caf\#u{E9}": 3, "cafe\#u{301}": 4}"#))
        #expect(found.map(\.pointer) == ["/a"])
    }

    @Test func aNameThreeTimesInALargeObjectListsEveryPlace() throws {
        let members = (0..<20).map { #""m\#($0)": 0"# } + [#""k": 1"#, #""k": 2"#, #""k": 3"#]
        let found = try check(json("{" + members.joined(separator: ", ") + "}"))
        #expect(found.map(\.message) == [
            "/k: expected each member name once per object (RFC 8259 §4, I-JSON RFC 7493 §2.3), found 'k' 3 times: 1 at line 1, column 192, 2 at line 1, column 200, then 3 at line 1, column 208; parsers disagree on which value a client reads",
        ])
    }

    @Test func manyRepeatedNamesAreCappedAndCounted() throws {
        let body = "[" + (0..<15).map { #"{"n\#($0)": 1, "n\#($0)": 2}"# }.joined(separator: ",") + "]"
        let found = try check(json(body), expecting: #"{ "status": 200, "schema": { "type": "array" } }"#)
        #expect(found.count == DuplicateMembers.maxListed + 1)
        #expect(found.first?.pointer == "/0/n0" && found[9].pointer == "/9/n9")
        #expect(found.last?.message == "and 5 more repeated member names in this body, not listed (the first 10 are)")
    }

    @Test func aLongRepeatedValueOrNameMakesAShortMessage() throws {
        let long = String(repeating: "v", count: 1 << 20)
        let found = try check(json(#"{"\#(long)": "\#(long)", "\#(long)": {"deep": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}}"#))
        #expect(found.count == 1)
        #expect((found.first?.message.count ?? .max) < 600, "\(found.first?.message.prefix(600) ?? "")")
        #expect(found.first?.message.contains("then an object of 1 member at line 1") == true)
    }

    @Test func aRepeatedSecretIsMaskedWhereTheCheckShowsIt() throws {
        let found = try check(json(#"{"token": "\#(Self.secret)", "token": "\#(Self.secret)"}"#))
        #expect(found.count == 1)
        let message = found.first?.message ?? ""
        let excerpt = found.first?.excerpt ?? ""
        #expect(message.contains(#"found 'token' twice: "***" at line 1, column 2, then "***" at line 1, column 33;"#), "\(message)")
        #expect(excerpt == #"{"token": "***", "token": "***"}"#)
    }

    @Test func aWrongStatusStillShowsWhatEveryClientTripsOn() throws {
        let response = json(#"{"error": "a", "error": "b"}"#, status: 404)
        let found = try check(response, expecting: #"{ "status": 200, "schema": { "required": ["id"] } }"#)
        #expect(found.map(\.kind) == [.status, .body])
        #expect(found.first?.excerpt == #"{"error": "a", "error": "b"}"#)
        // Without a body expectation there is nothing to say was skipped.
        let plain = try check(HTTPResponse(status: 500, headers: [], body: Array("oops".utf8)), expecting: #"{ "status": "2XX" }"#)
        #expect(plain.map(\.message) == ["expected status 2XX, found 500"])
        #expect(plain.first?.excerpt == "oops")
    }

    @Test func invalidUTF8InAJSONStringIsAnEncodingFindingNotASyntaxError() throws {
        let response = HTTPResponse(
            status: 200, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")], body: Array(#"{"name": "a"#.utf8) + [0xFF] + Array(#""}"#.utf8))
        #expect(try check(response).map(\.message) == [
            "expected UTF-8 text (the Content-Type 'application/json; charset=utf-8' declares UTF-8), found 0xFF, which is not UTF-8, at line 1, column 12 (byte 11)",
        ])
    }

    @Test func aByteOrderMarkInTextThatIsNotJSONIsNoteworthyOnlyWhenTheTextDiffers() throws {
        let body = BodyEncoding.byteOrderMark + Array("hello".utf8)
        let headers = [HTTPHeader("Content-Type", "text/plain; charset=utf-8")]
        #expect(try check(HTTPResponse(status: 200, headers: HTTPHeaders(headers), body: body), expecting: #"{ "status": 200, "text": { "pattern": "hello" } }"#).isEmpty)
        let found = try check(HTTPResponse(status: 200, headers: HTTPHeaders(headers), body: body), expecting: #"{ "status": 200, "text": "hello" }"#)
        #expect(found.map(\.message) == ["expected the body 'hello', found '\u{FEFF}hello' (the body starts with a byte order mark, U+FEFF)"])
        // JSON matched as text is still JSON.
        let jsonText = try check(json("\u{FEFF}{}"), expecting: #"{ "status": 200, "text": { "pattern": "^." } }"#)
        #expect(jsonText.map(\.kind) == [.body] && jsonText.first?.message.hasPrefix("expected a JSON body without a byte order mark") == true)
    }

    @Test func repeatedFieldsThatAreNotDrift() throws {
        let response = json("{}", headers: [
            HTTPHeader("Content-Type", "application/json"), HTTPHeader("content-length", "2"), HTTPHeader("Content-Length", "2"),
            HTTPHeader("Set-Cookie", "a=1"), HTTPHeader("Set-Cookie", "b=2"), HTTPHeader("WWW-Authenticate", "Basic"), HTTPHeader("WWW-Authenticate", "Bearer"),
            HTTPHeader("X-Unchecked", "1"), HTTPHeader("X-Unchecked", "2"),
        ])
        #expect(try check(response, expecting: #"{ "status": 200, "headers": { "Set-Cookie": { "pattern": "a=" }, "X-Gone": { "present": false } } }"#).isEmpty)
    }

    @Test func repeatedFieldsThatAreDrift() throws {
        let response = json("{}", headers: [
            HTTPHeader("Content-Type", "application/json"), HTTPHeader("ETag", "\"1\""), HTTPHeader("etag", "\"2\""),
            HTTPHeader("Access-Control-Allow-Origin", "*"), HTTPHeader("Access-Control-Allow-Origin", "*"),
            HTTPHeader("X-Token", Self.secret), HTTPHeader("X-Token", "other"),
        ])
        #expect(try check(response, expecting: #"{ "status": 200, "headers": { "x-token": { "present": true } } }"#).map(\.message) == [
            "expected one 'Access-Control-Allow-Origin' field (a single-value field, Fetch standard, CORS protocol), found 2 with the same value, which browsers read joined as '*, *': '*', '*'",
            #"expected one 'ETag' field (a single-value field, RFC 9110 §8.8.3), found 2 with different values: '"1"', '"2"'"#,
            "expected one 'x-token' field (the contract checks its value), found 2 with different values: '***', 'other'",
        ])
    }

    @Test func charsetParameters() {
        #expect(BodyDeclaration.charsetIsUTF8("text/plain; charset=utf-8"))
        #expect(BodyDeclaration.charsetIsUTF8(#"text/plain;CHARSET="UTF8""#))
        #expect(BodyDeclaration.charsetIsUTF8("text/csv; header=present; charset = Utf-8"))
        #expect(!BodyDeclaration.charsetIsUTF8("text/plain; charset=iso-8859-1"))
        #expect(!BodyDeclaration.charsetIsUTF8("text/plain"))
        #expect(!BodyDeclaration.charsetIsUTF8("text/utf-8"))
    }

    @Test func theUTF8ScanAgreesWithTheStandardLibrary() {
        let cases: [[UInt8]] = [
            [], Array("plain ascii, longer than eight bytes".utf8), Array("caf\u{E9} \u{1F600}".utf8),
            [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82],
            [0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0xE2, 0x82, 0xAC], [0x80], [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],
        ]
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2_000).map { _ in (0..<Int.random(in: 0...24, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        for bytes in cases + random {
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let invalidAt = BodyEncoding.firstInvalidUTF8(bytes)
            #expect((invalidAt == nil) == valid, "\(bytes)")
            if let invalidAt { #expect(String(validating: bytes[..<invalidAt], as: UTF8.self) != nil, "\(bytes)") }
        }
    }
}
