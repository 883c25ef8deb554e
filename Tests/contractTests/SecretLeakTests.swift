import Foundation
import TestSupport
import Testing

/// A server that echoes the run's secrets back in every way it can (padded so that clips cut them,
/// as member names, JSON-escaped, percent- and form-encoded, in headers and text bodies), and every
/// output of `contract verify` (console, JSON, JUnit, Markdown, curl line) searched for any piece
/// of them in any form.
struct SecretLeakTests {
    /// An `${env:…}` secret with the characters encodings treat specially.
    static let token = #"Qx7"sec/RET+&=\ zz9Wv"#
    /// A credential given with `--header`, literally.
    static let apiKey = "k3yLITERAL4242abcdXY"
    /// An `${env:…}` value in a `--header`.
    static let custom = "cUSTOMv4lue77QQ"

    /// The forms a server may echo a secret in, and the forms reports write text in.
    static func forms(of secret: String) -> [String] {
        func percent(_ text: String, upper: Bool, form: Bool) -> String {
            text.utf8.map { byte -> String in
                let scalar = Unicode.Scalar(byte)
                if scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) { return String(scalar) }
                if form && byte == 0x20 { return "+" }
                return "%" + String(format: upper ? "%02X" : "%02x", byte)
            }.joined()
        }
        let json = jsonEscaped(secret)
        let xml = secret.replacing("&", with: "&amp;").replacing("\"", with: "&quot;")
        return [
            secret, json, json.replacing("/", with: "\\/"), xml, secret.replacing("~", with: "~0").replacing("/", with: "~1"),
            percent(secret, upper: true, form: false), percent(secret, upper: false, form: false), percent(secret, upper: true, form: true),
            // Escaped again, as a server echoing a JSON body inside a string writes it, and again.
            jsonEscaped(json), jsonEscaped(jsonEscaped(json)),
        ]
    }

    /// `text` as the inside of a JSON string.
    static func jsonEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    /// Every piece of every form, from `length` characters on.
    static func pieces(of secret: String, length: Int = 6) -> Set<String> {
        var pieces: Set<String> = []
        for form in forms(of: secret) {
            // A piece of an XML form could be an entity alone (`&quot;`), which any report has.
            let length = form.contains("&quot;") ? length + 6 : length
            let characters = Array(form)
            guard characters.count >= length else { continue }
            for start in 0...(characters.count - length) {
                // A piece of only backslashes and quotes is any report's escaping, not the secret.
                let piece = characters[start..<(start + length)]
                if piece.contains(where: { $0.isLetter || $0.isNumber }) { pieces.insert(String(piece)) }
            }
        }
        return pieces
    }

    static func contract(_ id: String, path: String, cases: String) -> String {
        """
        {
          "id": "\(id)",
          "request": { "method": "GET", "path": "\(path)", "headers": { "Authorization": "Bearer ${env:LEAK_TOKEN}" } },
          "cases": [\(cases)]
        }
        """
    }

    /// The echoes, by path: every way a value from the server reaches an output.
    static func route(_ target: String) -> LoopbackHTTPServer.Behavior {
        let parts = target.split(separator: "/").map(String.init)
        let number = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let padding = String(repeating: "a", count: number)
        let jsonToken = token.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("/", with: "\\/")
        let percentToken = token.utf8.map { byte in
            Unicode.Scalar(byte).properties.isAlphabetic ? String(Unicode.Scalar(byte)) : "%" + String(format: "%02X", byte)
        }.joined()
        switch parts.first {
        case "text":  // a text body clipped at 80 characters, after `number` characters of padding
            return .respond(status: 200, headers: [("Content-Type", "text/plain")], body: Array((padding + token).utf8))
        case "header":  // a header value, clipped the same way
            return .respond(status: 200, headers: [("X-Echo", padding + percentToken), ("X-Key", padding + apiKey)], body: [])
        case "value":  // a string the validator clips at 40 characters
            return .json(status: 200, #"{"n": "\#(padding)\#(jsonToken)"}"#)
        case "excerpt":  // an excerpt of the body around /n, with the echo `number` bytes after it
            return .json(status: 200, #"{"n": "x", "p": "\#(padding)\#(jsonToken)", "k": "\#(padding)\#(custom)"}"#)
        case "deep":  // the token escaped twice and three times, as a server echoing a JSON body inside a string sends it
            let twice = jsonEscaped(jsonToken)
            return .json(status: 200, #"{"n": "x", "d": "\#(padding)\#(twice)", "e": "\#(padding)\#(jsonEscaped(twice))"}"#)
        case "key":  // member names, so pointers
            return .json(status: 200, #"{"items": [{"\#(jsonToken)": 1}, {"\#(jsonToken)": 2}, {"\#(apiKey)": 3}]}"#)
        case "status":  // a wrong status with the echo in the body's head
            return .respond(status: 500, headers: [("X-\(apiKey)", "1")], body: Array((padding + percentToken + " " + custom).utf8))
        default:
            return .json(status: 404, "{}")
        }
    }

    static func files() -> [String: String] {
        let cuts = Array(0...90).filter { $0 % 3 == 0 }
        func cases(_ body: (Int) -> String) -> String {
            cuts.map { "{ \"name\": \"at\($0)\", \"request\": { \"pathParams\": { \"n\": \($0) } }, \(body($0)) }" }.joined(separator: ",\n")
        }
        return [
            "text.json": contract("echo.text", path: "/text/{n}", cases: cases { _ in #""response": { "status": 200, "text": "ok" }"# }),
            "header.json": contract("echo.header", path: "/header/{n}", cases: cases { _ in
                #""response": { "status": 200, "headers": { "X-Echo": { "pattern": "^none$" }, "X-Key": "none" } }"#
            }),
            "value.json": contract("echo.value", path: "/value/{n}", cases: cases { _ in
                #""response": { "status": 200, "schema": { "properties": { "n": { "type": "integer" } } } }"#
            }),
            "excerpt.json": contract("echo.excerpt", path: "/excerpt/{n}", cases: cases { _ in
                #""response": { "status": 200, "schema": { "properties": { "n": { "type": "integer" }, "k": { "maxLength": 1 } } } }"#
            }),
            "deep.json": contract("echo.deep", path: "/deep/{n}", cases: cases { _ in
                #""response": { "status": 200, "schema": { "properties": { "n": { "type": "integer" }, "d": { "maxLength": 1 }, "e": { "maxLength": 1 } } } }"#
            }),
            "key.json": contract("echo.key", path: "/key/{n}", cases: cases { _ in
                #""response": { "status": 200, "schema": { "properties": { "items": { "items": { "additionalProperties": { "type": "string" } } } } } }"#
            }),
            "status.json": contract("echo.status", path: "/status/{n}", cases: cases { _ in #""response": { "status": 200, "text": "ok" }"# }),
        ]
    }

    @Test func noOutputShowsAnyPieceOfASecret() async throws {
        let server = try LoopbackHTTPServer { _, target in Self.route(target) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in Self.files() { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        var environment = ProcessInfo.processInfo.environment
        environment["LEAK_TOKEN"] = Self.token
        environment["LEAK_CUSTOM"] = Self.custom
        let reports = ["json": "r.json", "junit": "r.xml", "markdown": "r.md", "html": "r.html"]
        let result = try await ContractBinary.run(
            ["verify", "--base-url", server.baseURL, "--color", "never", "--header", "X-Api-Key: \(Self.apiKey)",
             "--header", "X-Custom: ${env:LEAK_CUSTOM}"] + reports.flatMap { ["--report", "\($0.key)=\(folder.path)/\($0.value)"] } + [folder.path],
            in: folder, environment: environment)
        #expect(result.exitCode == 1, "\(result.stderr)")
        var outputs = ["stdout": result.stdout, "stderr": result.stderr]
        for (kind, file) in reports { outputs[kind] = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) }

        // The run did see the echoes: its findings are there, masked.
        #expect(result.stdout.contains("X-Api-Key: ***") && result.stdout.contains("X-Custom: ***"), "the curl line")
        #expect(result.stdout.contains("/items/0/***"), "the pointer of an echoed member name")
        #expect(outputs["json"]?.contains(#""pointer": "/items/0/***""#) == true)
        #expect(result.stdout.contains("the same at /items/1/***"))
        // The server got the real values.
        let sent = server.requests.first { $0.target.hasPrefix("/text/") }
        #expect(sent?.header("Authorization") == "Bearer \(Self.token)")
        #expect(sent?.header("X-Api-Key") == Self.apiKey && sent?.header("X-Custom") == Self.custom)

        for secret in [Self.token, Self.apiKey, Self.custom] {
            for piece in Self.pieces(of: secret) {
                for (name, text) in outputs where text.contains(piece) {
                    let line = text.split(separator: "\n").first { $0.contains(piece) } ?? ""
                    Issue.record("\(name) shows '\(piece)' of a secret: \(line)")
                }
            }
        }
    }

    /// A folder with one contract of one case at `path`, and an environment that sets its token.
    func oneContract(path: String) throws -> (URL, [String: String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.contract("a", path: path, cases: #"{ "name": "b", "response": { "status": 200 } }"#)
            .write(to: folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["LEAK_TOKEN"] = "x"
        return (folder, environment)
    }

    /// A one-character secret (`LEAK_TOKEN=x`, as `oneContract` sets) is masked where the server
    /// sends it back as a value, and leaves the same letter alone inside words and URLs.
    @Test func aOneCharacterSecretIsMaskedAsAValueOnly() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            .respond(
                status: 500, headers: [("Content-Type", "application/json"), ("X-Echo", "x")],
                body: Array(#"{"token": "x", "next": "https://example.com/box?t=x", "text": "exactly"}"#.utf8))
        }
        let (folder, environment) = try oneContract(path: "/x")
        let result = try await ContractBinary.run(
            ["verify", "--base-url", server.baseURL, "--color", "never", "--report", "json=\(folder.path)/r.json", folder.path], in: folder,
            environment: environment)
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(server.requests.first?.header("Authorization") == "Bearer x", "the server got the real value")
        let report = try String(contentsOf: folder.appendingPathComponent("r.json"), encoding: .utf8)
        for output in [result.stdout, report] {
            #expect(output.contains(#""token": "***""#) || output.contains(#"\"token\": \"***\""#), "\(output)")
            #expect(output.contains("https://example.com/box?t=***"), "\(output)")
            #expect(output.contains("exactly") && output.contains("/box"), "the letter inside words is left alone: \(output)")
            #expect(!output.contains(#""x""#) && !output.contains(#"\"x\""#) && !output.contains("t=x"), "\(output)")
        }
        #expect(result.stdout.contains("Authorization: Bearer ***"), "\(result.stdout)")
    }

    /// A baseline's reason may quote a token (people paste what they saw): every report shows it
    /// masked, for a known finding and for one listed as fixed, and its terminal escapes escaped.
    @Test func aBaselineReasonShowsNoSecret() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 500, "{}") }
        var (folder, environment) = try oneContract(path: "/x")
        environment["LEAK_TOKEN"] = Self.token
        // Reports and the baseline beside the contracts, not among them.
        let out = folder.appendingPathComponent("../\(folder.lastPathComponent)-out").standardized
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let first = try await ContractBinary.run(
            ["verify", "--base-url", server.baseURL, "--report", "json=\(out.path)/first.json", folder.path], in: folder, environment: environment)
        #expect(first.exitCode == 1, "\(first.stderr)")
        let report = try String(contentsOf: out.appendingPathComponent("first.json"), encoding: .utf8)
        let fingerprint = try #require(report.firstMatch(of: /"fingerprint": "([0-9a-f]+)"/)?.output.1)
        let quoted = Self.jsonEscaped(Self.token)
        try """
            {"format": "contract-verify-baseline", "version": 1, "findings": [
              {"case": "a/b", "fingerprint": "\(fingerprint)", "reason": "seen with \(quoted) \\u001b[2J", "where": "\(quoted)"},
              {"case": "gone/case", "fingerprint": "00000000000000aa", "reason": "old \(Self.jsonEscaped(quoted))"}
            ]}
            """.write(to: out.appendingPathComponent("baseline.json"), atomically: true, encoding: .utf8)
        let reports = ["json": "r.json", "junit": "r.xml", "markdown": "r.md", "html": "r.html"]
        let result = try await ContractBinary.run(
            ["verify", "--base-url", server.baseURL, "--color", "never", "--baseline", "\(out.path)/baseline.json"]
                + reports.flatMap { ["--report", "\($0.key)=\(out.path)/\($0.value)"] } + [folder.path],
            in: folder, environment: environment)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("(known: seen with *** \\u{1B}[2J)"), "\(result.stdout)")
        #expect(result.stdout.contains("fixed: gone/case"), "\(result.stdout)")
        var outputs = ["stdout": result.stdout, "stderr": result.stderr]
        for (kind, file) in reports { outputs[kind] = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8) }
        #expect(outputs["json"]?.contains("seen with ***") == true)
        for piece in Self.pieces(of: Self.token) {
            for (name, text) in outputs where text.contains(piece) {
                Issue.record("\(name) shows '\(piece)' of a secret: \(text.split(separator: "\n").first { $0.contains(piece) } ?? "")")
            }
        }
        #expect(!result.stdout.contains("\u{1B}"), "no terminal escape reaches the console")
    }

    /// A baseline refused for what it holds is quoted in the error, which masks a secret there too:
    /// as a value, as a member name (in the pointer too), with the contracts' and headers' secrets.
    @Test func aRefusedBaselineShowsNoSecret() async throws {
        var (folder, environment) = try oneContract(path: "/x")
        environment["LEAK_TOKEN"] = Self.apiKey
        let out = folder.appendingPathComponent("../\(folder.lastPathComponent)-out").standardized
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try """
            {"format": "contract-verify-baseline", "version": 1, "findings": [
              {"fingerprint": "0123456789abcdef", "case": "a/b", "expires": "\(Self.apiKey)"},
              {"fingerprint": "0123456789abcdee", "case": "a/b", "\(Self.apiKey)": 1},
              {"fingerprint": "\(Self.custom)", "case": "a/b"},
              {"fingerprint": "0123456789abcdea", "case": "a/b", "expires": "p4ssWORDzz9"}
            ]}
            """.write(to: out.appendingPathComponent("baseline.json"), atomically: true, encoding: .utf8)
        environment["LEAK_CUSTOM"] = Self.custom
        let result = try await ContractBinary.run(
            ["verify", "--base-url", "http://deploy:p4ssWORDzz9@127.0.0.1:9", "--header", "X-Custom: ${env:LEAK_CUSTOM}", "--baseline", "\(out.path)/baseline.json", folder.path],
            in: folder, environment: environment)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("found '***'") && result.stderr.contains("unknown key '***'"), "\(result.stderr)")
        for secret in [Self.apiKey, Self.custom, "p4ssWORDzz9"] {
            #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret), "\(result.stderr)")
        }
    }

    /// `--base-url https://user:password@host` shows the user information in no output.
    @Test func aBaseURLsPasswordIsASecret() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 500, #"{"echo": "p4ssWORDzz9"}"#) }
        let (folder, environment) = try oneContract(path: "/x")
        let base = server.baseURL.replacing("http://", with: "http://deploy:p4ssWORDzz9@")
        let result = try await ContractBinary.run(
            ["verify", "--base-url", base, "--color", "never", "--report", "json=\(folder.path)/r.json", folder.path], in: folder, environment: environment)
        #expect(result.exitCode == 1, "\(result.stderr)")
        let report = try String(contentsOf: folder.appendingPathComponent("r.json"), encoding: .utf8)
        for output in [result.stdout, result.stderr, report] {
            #expect(!output.contains("p4ssWORD") && !output.contains("deploy:"), "\(output)")
        }
        #expect(result.stdout.contains("http://***@127.0.0.1"), "\(result.stdout)")
    }

    /// Arguments refused before anything is sent are not quoted back when they may hold a secret.
    @Test func refusedArgumentsDoNotShowSecrets() async throws {
        let (folder, environment) = try oneContract(path: "/x")
        let header = try await ContractBinary.run(
            ["verify", "--base-url", "http://127.0.0.1:9", "--header", "Authorization Bearer T0PSECRETvalue", folder.path], in: folder, environment: environment)
        #expect(header.exitCode == 2)
        #expect(!header.stderr.contains("T0PSECRET") && header.stderr.contains("--header must be 'Name: value'"), "\(header.stderr)")
        let base = try await ContractBinary.run(["verify", "--base-url", "ftp://user:PASSW0RDsecret@h", folder.path], in: folder, environment: environment)
        #expect(!base.stderr.contains("PASSW0RD") && base.stderr.contains("ftp://***@h"), "\(base.stderr)")
    }

    @Test func aHeaderSecretMustBeSet() async throws {
        var (folder, environment) = try oneContract(path: "/text/1")
        environment["LEAK_UNSET"] = nil
        let result = try await ContractBinary.run(
            ["verify", "--base-url", "http://127.0.0.1:9", "--header", "X-Key: ${env:LEAK_UNSET}", folder.path], in: folder, environment: environment)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("environment variable LEAK_UNSET is not set; it is used by --header 'X-Key'"), "\(result.stderr)")
    }
}
