import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// `binary` bodies, `text` conditions and header `repeats`, verified against a real server on
/// loopback: each expectation passes on the response it describes and fails on the drift, with a
/// finding that says what was expected, what came and where; secrets stay masked.
struct BodyExpectationVerifyTests {
    static let secret = "s3cr3t-b0dy-token"
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let pngBase64 = "iVBORw0KGgo="
    static let pngSHA256 = "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6"
    /// SHA-256 of `status: OK, items: 3`.
    static let statusSHA256 = "2a5253c4d0f8aef62d2f882bba9af3b894302119334e5721be85d9c99be9f05f"
    static let longText = String(repeating: "line of text; ", count: 8) + "the end"

    static func binaryCase(_ name: String, _ binary: String, route: String? = nil) -> String {
        #"{ "name": "\#(name)", "request": { "pathParams": { "name": "\#(route ?? name)" } }, "response": { "status": 200, "binary": \#(binary) } }"#
    }

    static func textCase(_ name: String, _ text: String, route: String? = nil) -> String {
        #"{ "name": "\#(name)", "request": { "pathParams": { "name": "\#(route ?? name)" } }, "response": { "status": 200, "text": \#(text) } }"#
    }

    static func headerCase(_ name: String, _ headers: String) -> String {
        #"{ "name": "\#(name)", "request": { "pathParams": { "name": "\#(name)" } }, "response": { "status": 200, "headers": \#(headers) } }"#
    }

    static func contract(_ id: String, _ path: String, _ cases: [String]) -> String {
        """
        { "id": "\(id)",
          "request": { "method": "GET", "path": "\(path)", "headers": { "Authorization": "Bearer ${env:TOKEN}" } },
          "cases": [
            \(cases.joined(separator: ",\n    "))
          ] }
        """
    }

    static let contracts: [String: String] = [
        "binary.json": contract("binary", "/bin/{name}", [
            binaryCase("length", #"{ "length": 8 }"#, route: "png"),
            binaryCase("length-wrong", #"{ "length": 1024 }"#, route: "png"),
            binaryCase("bounds", #"{ "minLength": 1, "maxLength": 8 }"#, route: "png"),
            binaryCase("too-long", #"{ "minLength": 1, "maxLength": 4 }"#, route: "png"),
            binaryCase("too-short", #"{ "minLength": 1 }"#, route: "nothing"),
            binaryCase("sha256", #"{ "sha256": "\#(pngSHA256.uppercased())" }"#, route: "png"),
            binaryCase("sha256-wrong", #"{ "sha256": "\#(pngSHA256)" }"#, route: "gif"),
            binaryCase("bytes", #"{ "base64": "\#(pngBase64)", "length": 8 }"#, route: "png"),
            binaryCase("bytes-differ", #"{ "base64": "\#(pngBase64)" }"#, route: "png-corrupt"),
            binaryCase("bytes-short", #"{ "base64": "\#(pngBase64)" }"#, route: "png-cut"),
            binaryCase("bytes-long", #"{ "base64": "\#(pngBase64)" }"#, route: "png-trailing"),
            binaryCase("bytes-empty", #"{ "base64": "\#(pngBase64)" }"#, route: "nothing"),
            binaryCase("secret", #"{ "sha256": "\#(pngSHA256)" }"#, route: "secret"),
        ]),
        "text.json": contract("text", "/text/{name}", [
            textCase("contains", #"{ "contains": ["items: 3", "status: OK"] }"#, route: "status"),
            textCase("contains-missing", #"{ "contains": ["status: OK", "total: 3", "currency"] }"#, route: "status"),
            textCase("contains-case", #"{ "contains": ["status: ok"] }"#, route: "status"),
            textCase("length", #"{ "length": 20 }"#, route: "status"),
            textCase("length-wrong", #"{ "minLength": 100, "maxLength": 200 }"#, route: "status"),
            textCase("sha256", #"{ "sha256": "\#(statusSHA256)" }"#, route: "status"),
            textCase("sha256-wrong", #"{ "sha256": "\#(statusSHA256)" }"#, route: "status-changed"),
            textCase("ascii", #"{ "contains": ["OK"], "charset": "us-ascii" }"#, route: "status"),
            textCase("ascii-wrong", #"{ "contains": ["Gr"], "charset": "us-ascii" }"#, route: "greeting-utf8"),
            textCase("latin1", #"{ "equals": "Grüße", "charset": "iso-8859-1" }"#, route: "greeting-latin1"),
            textCase("latin1-declared-utf8", #"{ "equals": "Grüße", "charset": "iso-8859-1" }"#, route: "greeting-latin1-says-utf8"),
            textCase("latin1-wrong", #"{ "equals": "Grüße", "charset": "iso-8859-1" }"#, route: "greeting-utf8"),
            textCase("latin1-contains", #"{ "contains": ["Hallo"], "charset": "iso-8859-1" }"#, route: "greeting-latin1"),
            textCase("combined", #"{ "pattern": "^status", "contains": ["items: 3"], "maxLength": 64, "charset": "utf-8" }"#, route: "status"),
            textCase("combined-wrong", #"{ "pattern": "^status", "contains": ["items: 3"], "maxLength": 10 }"#, route: "error"),
            textCase("equals-long", #"{ "equals": "\#(longText)" }"#, route: "long"),
            textCase("contains-secret", #"{ "contains": ["status"] }"#, route: "secret"),
        ]),
        "headers.json": contract("headers", "/headers/{name}", [
            headerCase("repeats", #"{ "Set-Cookie": { "pattern": "^session=", "repeats": true }, "Content-Type": { "present": true, "repeats": true } }"#),
            headerCase("once", #"{ "X-Request-Id": { "pattern": "^[0-9a-f]+$", "repeats": false } }"#),
            headerCase("once-same-value", #"{ "X-Request-Id": { "pattern": "^[0-9a-f]+$", "repeats": false } }"#),
            headerCase("once-list", #"{ "Set-Cookie": { "pattern": "^session=", "repeats": false } }"#),
            headerCase("once-singleton", #"{ "Content-Type": { "equals": "image/png", "repeats": false } }"#),
            headerCase("unstated-same-value", #"{ "X-Request-Id": { "pattern": "^[0-9a-f]+$" } }"#),
        ]),
    ]

    static func route(_ method: String, _ target: String) -> LoopbackHTTPServer.Behavior {
        func bytes(_ body: [UInt8], _ type: String = "application/octet-stream") -> LoopbackHTTPServer.Behavior {
            .respond(status: 200, headers: [("Content-Type", type)], body: body)
        }
        func text(_ body: String, _ type: String = "text/plain") -> LoopbackHTTPServer.Behavior {
            .respond(status: 200, headers: [("Content-Type", type)], body: Array(body.utf8))
        }
        func headers(_ fields: [(String, String)]) -> LoopbackHTTPServer.Behavior {
            .respond(status: 200, headers: fields, body: [])
        }
        switch target {
        case "/bin/png": return bytes(png, "image/png")
        case "/bin/gif": return bytes(Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00], "image/gif")
        case "/bin/png-corrupt": return bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x0A, 0x0A], "image/png")
        case "/bin/png-cut": return bytes(Array(png.prefix(5)), "image/png")
        case "/bin/png-trailing": return bytes(png + [0x00, 0x00, 0x00, 0x0D, 0x49, 0x48], "image/png")
        case "/bin/nothing": return bytes([])
        case "/bin/secret": return bytes([0x00, 0x01] + Array("Bearer \(secret)".utf8) + [0xFF, 0xFE])
        case "/text/status": return text("status: OK, items: 3")
        case "/text/status-changed": return text("status: OK, items: 4")
        case "/text/greeting-utf8": return text("Grüße", "text/plain; charset=utf-8")
        case "/text/greeting-latin1": return bytes([0x47, 0x72, 0xFC, 0xDF, 0x65], "text/plain; charset=iso-8859-1")
        case "/text/greeting-latin1-says-utf8": return bytes([0x47, 0x72, 0xFC, 0xDF, 0x65], "text/plain; charset=utf-8")
        case "/text/error": return text("error: the server could not count the items")
        case "/text/long": return text(String(repeating: "line of text; ", count: 8) + "The end")
        case "/text/secret": return text("token=\(secret)")
        case "/headers/repeats":
            return headers([("Set-Cookie", "session=1"), ("Set-Cookie", "theme=dark"), ("Content-Type", "image/png"), ("Content-Type", "image/webp")])
        case "/headers/once": return headers([("X-Request-Id", "abc123")])
        case "/headers/once-same-value", "/headers/unstated-same-value": return headers([("X-Request-Id", "abc123"), ("X-Request-Id", "abc123")])
        case "/headers/once-list": return headers([("Set-Cookie", "session=1"), ("Set-Cookie", "session=1")])
        case "/headers/once-singleton": return headers([("Content-Type", "image/png"), ("Content-Type", "image/png")])
        default: return .json(status: 404, #"{"error": "no route \#(method) \#(target)"}"#)
        }
    }

    /// One run for every test, started by the first that asks and awaited by all: the server is
    /// real, the cases are many, and the outcome is fixed.
    static let shared = Task { () async throws -> (VerifyReport, String) in
        let server = try LoopbackHTTPServer(route: route)
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.environment = ["TOKEN": secret]
        options.http.timeout = .seconds(10)
        options.concurrency = 4
        let collector = VerifyRunTests.Collector()
        var console = ""
        let reporter = ConsoleReporter(style: .plain) { console += $0 }
        let set = Fixtures.load(contracts)
        guard set.diagnostics.isEmpty else { throw LintFailure(diagnostics: set.diagnostics.map(\.rendered)) }
        let report = try await Verifier.run(set, options: options, reporters: [reporter, collector])
        return (report, console + collector.text)
    }

    struct LintFailure: Error {
        var diagnostics: [String]
    }

    func run() async throws -> (VerifyReport, String) {
        try await Self.shared.value
    }

    func findings(_ name: String) async throws -> [Finding] {
        let (report, _) = try await run()
        return try #require(report.results.first { $0.name == name }, "no result for \(name)").findings
    }

    func messages(_ name: String) async throws -> [String] {
        try await findings(name).map(\.message)
    }

    @Test func everyExpectationPassesOnTheResponseItDescribes() async throws {
        let (report, _) = try await run()
        let passing = [
            "binary/length", "binary/bounds", "binary/sha256", "binary/bytes", "text/contains", "text/length", "text/sha256", "text/ascii",
            "text/latin1", "text/combined", "headers/repeats", "headers/once", "headers/unstated-same-value",
        ]
        for name in passing {
            let result = try #require(report.results.first { $0.name == name }, "\(name)")
            #expect(result.outcome == .passed, "\(name): \(result.findings.map(\.message))")
        }
        #expect(report.passed == passing.count, "\(report.results.filter { $0.outcome == .passed }.map(\.name))")
        #expect(report.total == 36)
    }

    // MARK: Binary

    @Test func binaryLengthsGiveBothNumbersAndTheFirstBytes() async throws {
        #expect(try await messages("binary/length-wrong") == ["expected a body of exactly 1,024 bytes ('length'), found 8 bytes (1,016 fewer)"])
        #expect(try await findings("binary/length-wrong").first?.excerpt == "89 50 4E 47 0D 0A 1A 0A (8 bytes)")
        #expect(try await messages("binary/too-long") == ["expected a body of from 1 to 4 bytes ('minLength' and 'maxLength'), found 8 bytes (4 more)"])
        #expect(try await messages("binary/too-short") == ["expected a body of at least 1 byte ('minLength'), found 0 bytes (1 fewer)"])
        #expect(try await findings("binary/too-short").first?.excerpt == nil)
    }

    @Test func binaryDigestsAreShortened() async throws {
        #expect(try await messages("binary/sha256-wrong") == [
            "expected a body whose SHA-256 is 4c4b6a3be131…, found fb6567d49760… (of 10 bytes)",
        ])
        #expect(try await findings("binary/sha256-wrong").first?.excerpt == "47 49 46 38 39 61 01 00 01 00 (10 bytes)")
    }

    @Test func binaryBytesShowWhereTheyPart() async throws {
        #expect(try await messages("binary/bytes-differ") == [
            "expected the 8 bytes of 'base64', found 8 bytes that differ from byte 6: expected 1A 0A, found 0A 0A",
        ])
        #expect(try await messages("binary/bytes-short") == ["expected the 8 bytes of 'base64', found 5 bytes, the first 5 of them: 3 bytes missing at the end"])
        #expect(try await messages("binary/bytes-long") == [
            "expected the 8 bytes of 'base64', found 14 bytes, which begin with them and go on with 6 more: 00 00 00 0D 49 48",
        ])
        #expect(try await messages("binary/bytes-empty") == ["expected the 8 bytes of 'base64', found an empty body"])
        #expect(try await findings("binary/bytes-long").first?.excerpt == "89 50 4E 47 0D 0A 1A 0A 00 00 00 0D 49 48 (14 bytes)")
    }

    /// A secret in a binary body is masked in the hexadecimal excerpt, and a body holding one gets
    /// no digest in the report.
    @Test func secretsInBinaryBodiesAreMasked() async throws {
        let (_, output) = try await run()
        let found = try await findings("binary/secret")
        #expect(found.map(\.message) == [
            "expected a body whose SHA-256 is 4c4b6a3be131…, found another, not shown because the body holds a secret (of 28 bytes)",
        ])
        #expect(found.first?.excerpt == "00 01 42 65 61 72 65 72 20 *** FF FE (28 bytes)")
        let hexOfSecret = Array(Self.secret.utf8).map { ResponseChecker.hexByte($0) }.joined(separator: " ")
        #expect(!output.contains(Self.secret) && !output.contains(hexOfSecret.prefix(17)))
    }

    // MARK: Text

    @Test func missingSubstringsAreListed() async throws {
        #expect(try await messages("text/contains-missing") == [
            "expected the body to contain 'total: 3' and 'currency', which are missing (2 of 3 substrings), found 'status: OK, items: 3'",
        ])
        #expect(try await messages("text/contains-case") == [
            "expected the body to contain 'status: ok', which is missing (1 of 1 substring), found 'status: OK, items: 3'; "
                + "'status: OK' at line 1, column 1 (byte 0) differs from 'status: ok' only in case",
        ])
    }

    @Test func textLengthsAndDigests() async throws {
        #expect(try await messages("text/length-wrong") == ["expected a body of from 100 to 200 bytes ('minLength' and 'maxLength'), found 20 bytes (80 fewer)"])
        #expect(try await findings("text/length-wrong").first?.excerpt == "status: OK, items: 3")
        #expect(try await messages("text/sha256-wrong") == [
            "expected a body whose SHA-256 is 2a5253c4d0f8…, found e6ad4c5780a7… (of 20 bytes)",
        ])
    }

    @Test func charsetsAreHeldToTheirBytes() async throws {
        #expect(try await messages("text/ascii-wrong") == [
            "expected US-ASCII text ('charset' is 'us-ascii'), found 0xC3 0xBC, which is not US-ASCII, at line 1, column 3 (byte 2)",
        ])
        // ISO-8859-1 decodes every byte, but a Content-Type that says UTF-8 still has to be true.
        #expect(try await messages("text/latin1-declared-utf8") == [
            "expected UTF-8 text (the Content-Type 'text/plain; charset=utf-8' declares UTF-8), found 0xFC, which is not UTF-8, at line 1, column 3 (byte 2)",
        ])
        // UTF-8 bytes read as ISO-8859-1 are other characters.
        // The C1 control U+009F among them is escaped, as every control character a server sends.
        #expect(try await messages("text/latin1-wrong") == [#"expected the body 'Grüße', found 'GrÃ¼Ã\u{9F}e'"#])
        // Text in ISO-8859-1 is shown as its characters, in the message and the excerpt.
        #expect(try await messages("text/latin1-contains") == ["expected the body to contain 'Hallo', which is missing (1 of 1 substring), found 'Grüße'"])
        #expect(try await findings("text/latin1-contains").first?.excerpt == "Grüße")
    }

    @Test func combinedConditionsReportEachThatFails() async throws {
        #expect(try await messages("text/combined-wrong") == [
            "expected a body matching '^status', found 'error: the server could not count the items'",
            "expected the body to contain 'items: 3', which is missing (1 of 1 substring), found 'error: the server could not count the items'",
            "expected a body of at most 10 bytes ('maxLength'), found 43 bytes (33 more)",
        ])
    }

    /// Past what a clipped message shows, the place of the first difference is given, with the
    /// text around it.
    @Test func aLongTextSaysWhereItDiffers() async throws {
        let found = try await findings("text/equals-long")
        #expect(found.count == 1)
        #expect(found.first?.message.hasSuffix("; the first difference is at line 1, column 113 (byte 112)") == true, "\(found)")
        #expect(found.first?.excerpt == "…ne of text; line of text; line of text; The end")
    }

    @Test func secretsInTextFindingsAreMasked() async throws {
        let (_, output) = try await run()
        #expect(try await messages("text/contains-secret") == ["expected the body to contain 'status', which is missing (1 of 1 substring), found 'token=***'"])
        #expect(try await findings("text/contains-secret").first?.excerpt == "token=***")
        #expect(!output.contains(Self.secret))
    }

    // MARK: Headers

    @Test func repeatsSaysHowOftenAFieldComes() async throws {
        #expect(try await messages("headers/once-same-value") == [
            "expected one 'X-Request-Id' field (the contract says it comes once, 'repeats': false), found 2 with the same value: 'abc123', 'abc123'",
        ])
        #expect(try await messages("headers/once-list") == [
            "expected one 'Set-Cookie' field (the contract says it comes once, 'repeats': false), found 2 with the same value: 'session=1', 'session=1'",
        ])
        #expect(try await messages("headers/once-singleton") == [
            "expected one 'Content-Type' field (the contract says it comes once, 'repeats': false), found 2 with the same value: 'image/png', 'image/png'",
        ])
        // `repeats: true` makes even a single-value field a list: two Content-Types pass.
        #expect(try await messages("headers/repeats").isEmpty)
    }

    @Test func theSeamReadsTheContract() {
        #expect(RepeatedHeaders.expectsSeveral(HeaderExpectation(name: "Set-Cookie", matcher: .present, occurrences: .repeats)))
        #expect(!RepeatedHeaders.expectsSeveral(HeaderExpectation(name: "Set-Cookie", matcher: .present, occurrences: .once)))
        #expect(!RepeatedHeaders.expectsSeveral(HeaderExpectation(name: "Set-Cookie", matcher: .present)))
        #expect(RepeatedHeaders.expectsOnce(HeaderExpectation(name: "X-Id", matcher: .present, occurrences: .once)))
    }

    /// Every report format carries the new findings.
    @Test func reportsCarryTheFindings() async throws {
        let (report, output) = try await run()
        #expect(report.exitCode == 1)
        #expect(output.contains("- body: expected the 8 bytes of 'base64'"))
        #expect(output.contains("    body: 89 50 4E 47 0D 0A 0A 0A (8 bytes)"))
        #expect(output.contains(#""message": "expected a body of exactly 1,024 bytes ('length'), found 8 bytes (1,016 fewer)""#))
    }
}

