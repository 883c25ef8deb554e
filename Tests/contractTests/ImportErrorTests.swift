import Foundation
import TestSupport
import Testing

/// Every error of `contract import openapi` is one short compiler-style line,
/// `path:line:column: error: message [pointer]`, whatever the document holds: bytes that are not
/// UTF-8, YAML that does not parse, keys and values of megabytes.
struct ImportErrorTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-errors-\(UUID().uuidString)")

    struct Output: Sendable {
        var exitCode: Int32
        var stdout: [String]
        var stderr: [String]
        /// The CPU time the import used (user and system).
        var cpuSeconds: Double = 0
    }

    /// Runs `contract import openapi NAME --out out` on `bytes` written to NAME. Output goes to files,
    /// not pipes: a binary that prints megabytes to stderr must not block while stdout is read.
    /// On a thread of its own (`onOwnThread`): these runs take seconds each, and a test that blocks
    /// the cooperative pool starves the async tests beside it.
    func importDocument(_ bytes: [UInt8], named name: String) async throws -> Output {
        let test = self
        return try await onOwnThread { try test.importBlocking(bytes, named: name) }
    }

    private func importBlocking(_ bytes: [UInt8], named name: String) throws -> Output {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        let outURL = folder.appendingPathComponent("stdout.txt")
        let errURL = folder.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = try ChildProcess(
            ContractBinary.url.path, ["import", "openapi", name, "--out", "out"], in: folder.path, stdout: .file(outURL.path), stderr: .file(errURL.path))
        let status = process.wait()
        func lines(_ url: URL) throws -> [String] {
            String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n").map(String.init)
        }
        return Output(exitCode: status, stdout: try lines(outURL), stderr: try lines(errURL), cpuSeconds: process.cpuSeconds ?? 0)
    }

    func importDocument(_ text: String, named name: String = "api.yaml") async throws -> Output {
        try await importDocument(Array(text.utf8), named: name)
    }

    /// The import stopped with exactly `expected` (then "nothing was written"), and no line of its
    /// output is longer than `bound` bytes.
    func expectFailure(_ output: Output, _ expected: String, bound: Int = 300, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(output.exitCode == 2, sourceLocation: sourceLocation)
        for line in output.stdout + output.stderr {
            #expect(line.utf8.count <= bound, "a line of \(line.utf8.count) bytes: \(line.prefix(300))", sourceLocation: sourceLocation)
        }
        #expect(output.stderr.map { String($0.prefix(1000)) } == [expected, "nothing was written"], sourceLocation: sourceLocation)
    }

    /// The first warning of an import that went on (exit 0), every line of its output bounded.
    func warningLine(_ output: Output, bound: Int = 600, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(output.exitCode == 0, "\(output.stderr.prefix(3))", sourceLocation: sourceLocation)
        for line in output.stdout + output.stderr {
            #expect(line.utf8.count <= bound, "a line of \(line.utf8.count) bytes: \(line.prefix(300))", sourceLocation: sourceLocation)
        }
        return try #require((output.stdout + output.stderr).first { $0.contains(": warning: ") }, sourceLocation: sourceLocation)
    }

    /// The one error line, checked for the `name:line:column: error: ` shape and bounded; returns its message.
    func errorMessage(_ output: Output, in name: String, at position: String, bound: Int = 600, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        #expect(output.exitCode == 2, sourceLocation: sourceLocation)
        for line in output.stdout + output.stderr {
            #expect(line.utf8.count <= bound, "a line of \(line.utf8.count) bytes: \(line.prefix(300))", sourceLocation: sourceLocation)
        }
        #expect(output.stderr.count == 2 && output.stderr.last == "nothing was written", sourceLocation: sourceLocation)
        let prefix = "\(name):\(position): error: "
        guard let first = output.stderr.first, first.hasPrefix(prefix) else {
            Issue.record("expected '\(prefix)…', found \(output.stderr.first?.prefix(300) ?? "nothing")", sourceLocation: sourceLocation)
            return ""
        }
        return String(first.dropFirst(prefix.count))
    }

    static let responseWithSchema = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /a:
            get:
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: SCHEMA

        """

    static let megabytes = 8 * 1024 * 1024

    // MARK: The file and its syntax

    @Test func bytesThatAreNotUTF8AreLocatedAsLintLocatesThem() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Columns count Unicode scalars: 'é' is two bytes and one column.
        let bytes = Array("openapi: 3.1.0\ninfo:\n  title: 'café ".utf8) + [0xFF, 0xFE] + Array(" menu'\n  version: '1'\npaths: {}\n".utf8)
        expectFailure(try await importDocument(bytes, named: "api.yaml"), "api.yaml:3:16: error: the file is not UTF-8 text: byte 0xFF is not valid UTF-8")
    }

    @Test func yamlSyntaxErrorsCarryTheirPositionInTheLocationNotTheMessage() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        expectFailure(
            try await importDocument("openapi: 3.0.0\ninfo: {title: t\n"),
            "api.yaml:3:1: error: invalid YAML: while parsing a flow mapping did not find expected ',' or '}'")
        // A character libyaml refuses to read: Yams put "2:17: error: reader: …" and the line in its message.
        expectFailure(
            try await importDocument("openapi: 3.1.0\ninfo: {title: \"t\u{01}\", version: '1'}\npaths: {}\n"),
            "api.yaml:2:17: error: invalid YAML: control characters are not allowed")
    }

    @Test func aDuplicateKeyInALargeDocumentIsOneShortLine() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
        for index in 0..<3000 { text += "    Schema\(index): {type: string, description: 'schema number \(index) of a large document'}\n" }
        text += "    Schema7: {type: integer}\n"
        // Yams tells where the repeated key is first written (line 6 holds Schema0); its own
        // message quoted the whole document.
        expectFailure(try await importDocument(text), "api.yaml:13:5: error: the key 'Schema7' appears more than once in this mapping")
    }

    @Test func emptyAndNonObjectDocumentsArePositioned() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        expectFailure(try await importDocument("# only a comment\n"), "api.yaml:1:1: error: the document is empty")
        expectFailure(try await importDocument("- a\n"), "api.yaml:1:1: error: an OpenAPI document is an object, found array")
    }

    // MARK: Long values

    @Test func aMillionDigitNumberIsClipped() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let digits = String(repeating: "1", count: 1_000_000)
        // No JSON Schema type: the keyword is left out with a warning that quotes it clipped.
        let warning = try warningLine(try await importDocument(Self.responseWithSchema.replacingOccurrences(of: "SCHEMA", with: "{type: \(digits)}")))
        #expect(warning.hasPrefix("api.yaml:11:30: warning: not a valid JSON Schema keyword, left out: "), "\(warning)")
        #expect(warning.contains(String(repeating: "1", count: 40) + "…") || !warning.contains(String(repeating: "1", count: 41)), "\(warning)")
        #expect(!warning.contains(String(repeating: "1", count: 100)), "\(warning)")

        expectFailure(
            try await importDocument("openapi: \(digits)\ninfo: {title: t, version: '1'}\npaths: {}\n"),
            "api.yaml:1:10: error: the 'openapi' version must be a string such as '3.1.0', found integer [/openapi]")
    }

    @Test func eightMegabyteStringValuesAreClipped() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "x", count: Self.megabytes)
        let reference = "#/components/schemas/" + long
        let dangling = try warningLine(try await importDocument(Self.responseWithSchema.replacingOccurrences(of: "SCHEMA", with: "{$ref: '\(reference)'}")))
        #expect(dangling == "api.yaml:11:30: warning: '\(reference.prefix(100))…' points to nothing; what it describes is left out [/paths/~1a/get/responses/200/content/application~1json/schema/$ref]")

        expectFailure(
            try await importDocument("openapi: '3.2\(long)'\ninfo: {title: t, version: '1'}\npaths: {}\n"),
            "api.yaml:1:10: error: OpenAPI \(("3.2" + long).prefix(40))… is not supported: 3.0.x, 3.1.x and 3.2.x are [/openapi]")

        let type = try warningLine(try await importDocument(Self.responseWithSchema.replacingOccurrences(of: "SCHEMA", with: "{type: \(long)}")))
        #expect(type.contains("warning: not a valid JSON Schema keyword, left out"), "\(type)")
        #expect(!type.contains(String(repeating: "x", count: 100)), "\(type)")
    }

    @Test func eightMegabyteKeysAreClipped() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "k", count: Self.megabytes)
        let shown = String(repeating: "k", count: 40) + "…"

        // A key of a JSON document, in the parser's message.
        let unfinished = "{\"openapi\": \"3.1.0\", \"\(long)\" 1}"
        expectFailure(
            try await importDocument(unfinished, named: "api.json"),
            "api.json:1:\(unfinished.utf8.count - 1): error: invalid JSON: expected ':' after the key '\(shown)', found '1'")

        // A key in the JSON Pointer of a diagnostic.
        let path = "/" + long
        let document = """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"\(path)": {"get": {"responses": {"200": \
            {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/nope"}}}}}}}}}
            """
        let end = "\"#/nope\"}}}}}}}}}"
        #expect(document.hasSuffix(end))
        let column = document.utf8.count - end.utf8.count + 1  // where "#/nope" starts
        let nope = try warningLine(try await importDocument(document, named: "api.json"))
        #expect(nope == "api.json:1:\(column): warning: '#/nope' points to nothing; what it describes is left out [/paths/~1\(shown.dropFirst())/get/responses/200/content/application~1json/schema/$ref]")

        // A YAML key written twice (an explicit key, '? ', may be longer than 1024 characters).
        expectFailure(
            try await importDocument("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    ? \(long)\n    : {type: string}\n    ? \(long)\n    : {type: string}\n"),
            "api.yaml:6:7: error: the key '\(shown)' appears more than once in this mapping")
    }

    // MARK: Linear time (growth, not a clock: figures are in docs/PERFORMANCE.md)

    /// The same import at `scale` 1 and 8, twice each (`Growth.ratio`, in the child's CPU time, so a
    /// loaded machine does not count): linear work grows about 8 times, quadratic about 64.
    /// Returns the ratio with the outputs at scale 8, on a thread of its own.
    func growth(named name: String, _ document: @escaping @Sendable (Int) -> String) async throws -> (ratio: Double, small: Double, large: Double, outputs: [Output]) {
        let test = self
        return try await onOwnThread {
            var outputs: [Output] = []
            let growth = try Growth.ratio(size: 1, factor: 8, rounds: 2) { scale in
                let output = try test.importBlocking(Array(document(scale).utf8), named: name)
                if scale == 8 { outputs.append(output) }
                return output.cpuSeconds
            }
            return (growth.ratio, growth.small, growth.large, outputs)
        }
    }

    /// Each warning's column was counted from the start of its line: on a minified document with an
    /// 8 MB string, 400 warnings read 400 times the string (about 100 s in a debug build; 1 s now).
    /// A string of `scale` megabytes with 50 × `scale` warnings: the old cost grew with the square.
    @Test func warningsAfterAnEightMegabyteStringOnOneLineStayLinear() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let measured = try await growth(named: "api.json") { scale in
            var paths: [String] = []
            for index in 0..<(50 * scale) {
                paths.append("\"/p\(index)\": {\"trace\": {\"responses\": {\"200\": {\"description\": \"ok\"}}}, \"get\": {\"responses\": {\"200\": {\"description\": \"ok\"}}}}")
            }
            let description = String(repeating: "d", count: scale * Self.megabytes / 8)
            return "{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"t\", \"version\": \"1\", \"description\": \"\(description)\"}, \"paths\": {\(paths.joined(separator: ", "))}}"
        }
        for output in measured.outputs {
            #expect(output.exitCode == 0, "\(output.stderr.prefix(3))")
            #expect(output.stderr.filter { $0.contains("warning: TRACE operations cannot be expressed") }.count == 400)
        }
        #expect(measured.ratio < Growth.linearBound(factor: 8), "8 times the input cost \(measured.ratio) times the CPU time (\(measured.small) s, \(measured.large) s)")
    }

    /// Positions of YAML values were kept by JSON Pointer: every value below an 8 MB key hashed the
    /// key again (about 45 s for these 8,000 values in a debug build; a few seconds now). A key of
    /// `scale` megabytes above 25 × `scale` objects of 20 values: the old cost grew with the square.
    @Test func valuesBelowAnEightMegabyteYAMLKeyStayLinear() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let measured = try await growth(named: "api.yaml") { scale in
            var text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
            text += "    ? \(String(repeating: "k", count: scale * Self.megabytes / 8))\n    : type: object\n      properties:\n"
            let inner = (0..<20).map { "q\($0): {type: string}" }.joined(separator: ", ")
            for index in 0..<(25 * scale) { text += "        p\(index): {type: object, properties: {\(inner)}}\n" }
            return text
        }
        for output in measured.outputs {
            #expect(output.exitCode == 0, "\(output.stderr.prefix(3))")
        }
        #expect(measured.ratio < Growth.linearBound(factor: 8), "8 times the input cost \(measured.ratio) times the CPU time (\(measured.small) s, \(measured.large) s)")
    }
}
