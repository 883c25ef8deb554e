import ContractJSON
import ContractModel
import ContractSchema
import Foundation
import TestSupport
import Testing

/// `binary` bodies, `text` conditions and header `repeats`: what each valid form decodes to, and
/// one golden diagnostic per misuse in `Golden/body-expectations/`.
struct BodyExpectationLintTests {
    static let folder = "body-expectations"

    static func load() throws -> ContractSet {
        let directory = golden.directory.appendingPathComponent(folder).path
        let files = try ContractSourceReader.read(directory: directory).map {
            SourceFile(path: "\(folder)/" + $0.relativePath, relativePath: $0.relativePath, bytes: $0.bytes)
        }
        return ContractLoader.load(files: files, directory: folder)
    }

    static func snippet(_ response: String) -> ContractSet {
        let text = """
            { "id": "one", "request": { "method": "GET", "path": "/a" }, "cases": [ { "name": "ok", "response": \(response) } ] }
            """
        return ContractLoader.load(files: [SourceFile(path: "c/one.json", relativePath: "one.json", bytes: Array(text.utf8))], directory: "c")
    }

    static func response(_ response: String) throws -> ResponseExpectation {
        let set = snippet(response)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics.map(\.rendered))")
        return try #require(set.contracts.first?.cases.first).response
    }

    @Test func misusesMatchTheGoldenDiagnostics() throws {
        let report = LintReport(try Self.load())
        try golden.check(report.renderText(), against: "\(Self.folder).txt")
        #expect(report.exitCode == 2)
    }

    /// Exactly one diagnostic per misuse, none for the valid forms: no cascades, nothing missed.
    @Test func oneDiagnosticPerMisuseAndNoneForValidForms() throws {
        let set = try Self.load()
        let directory = golden.directory.appendingPathComponent(Self.folder).path
        for file in try ContractSourceReader.read(directory: directory) {
            let found = set.diagnostics.filter { $0.file == "\(Self.folder)/" + file.relativePath }
            #expect(found.count == (file.relativePath == "valid.json" ? 0 : 1), "\(file.relativePath): \(found.map(\.message))")
        }
        let valid = try #require(set.contracts.first { $0.id == "valid" })
        #expect(valid.cases.count == 13)
    }

    /// A body's kind and values read without a `switch`, so a kind added later breaks no caller.
    @Test func aBodyIsReadByKindAndAccessors() throws {
        let text = try Self.response(#"{ "status": 200, "text": "OK" }"#).body
        #expect(text.kind == .text && text.text == .equals("OK") && text.json == nil && text.binary == nil)
        let binary = try Self.response(#"{ "status": 200, "binary": { "length": 4 } }"#).body
        #expect(binary.kind == .binary && binary.binary == BinaryExpectation(length: .exactly(4)) && binary.text == nil)
        #expect(BodyExpectation.empty.kind == .empty && BodyExpectation.unchecked.kind == .unchecked)
        #expect([BodyExpectation.Kind.unchecked, .json, .text, .empty, .binary].map(\.description) == ["unchecked", "json", "text", "empty", "binary"])
    }

    @Test func theFormsTextAlwaysHadKeepTheirModel() throws {
        #expect(try Self.response(#"{ "status": 200, "text": "OK" }"#).body == .text(.equals("OK")))
        #expect(try Self.response(#"{ "status": 200, "text": { "equals": "OK" } }"#).body == .text(.equals("OK")))
        #expect(try Self.response(#"{ "status": 200, "text": { "pattern": "^OK" } }"#).body == .text(.pattern("^OK")))
        #expect(try Self.response(#"{ "status": 200, "text": { "pattern": "^OK" } }"#).body.patterns == ["^OK"])
    }

    @Test func textConditionsCombine() throws {
        let body = try Self.response("""
            { "status": 200, "text": { "pattern": "^status", "contains": ["OK", "items"], "minLength": 4, "maxLength": 4096,
              "sha256": "565339BC4D33D72817B583024112EB7F5CDF3E5EEF0252D6EC1B9C9A94E12BB3", "charset": "US-ASCII" } }
            """).body
        let expected = TextConditions(
            pattern: "^status", contains: ["OK", "items"], length: ByteCount(minimum: 4, maximum: 4096),
            sha256: "565339bc4d33d72817b583024112eb7f5cdf3e5eef0252d6ec1b9c9a94e12bb3", charset: .usASCII)
        #expect(body == .text(.conditions(expected)))
        #expect(body.patterns == ["^status"])
        let exact = try Self.response(#"{ "status": 200, "text": { "length": 2 } }"#).body
        #expect(exact == .text(.conditions(TextConditions(length: .exactly(2)))))
    }

    @Test func binaryBodiesDecode() throws {
        #expect(try Self.response(#"{ "status": 200, "binary": { "length": 1024 } }"#).body == .binary(BinaryExpectation(length: .exactly(1024))))
        #expect(
            try Self.response(#"{ "status": 200, "binary": { "minLength": 1, "maxLength": 1048576 } }"#).body
                == .binary(BinaryExpectation(length: ByteCount(minimum: 1, maximum: 1_048_576))))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(
            try Self.response(#"{ "status": 200, "binary": { "base64": "iVBORw0KGgo=" } }"#).body == .binary(BinaryExpectation(bytes: png)))
        #expect(try Self.response(#"{ "status": 200, "binary": { "base64": "" } }"#).body == .binary(BinaryExpectation(bytes: [])))
    }

    @Test func headerMatchersSayHowOftenTheFieldComes() throws {
        let headers = try Self.response("""
            { "status": 200, "headers": { "Set-Cookie": { "pattern": "^session=", "repeats": true }, "X-Id": { "present": true, "repeats": false },
              "ETag": { "equals": "x" }, "Vary": "Accept" } }
            """).headers
        #expect(headers.map(\.occurrences) == [.repeats, .once, .unstated, .unstated])
        #expect(headers[0].matcher == .pattern("^session="))
        #expect(headers[1].matcher == .present)
    }

    /// The editor schema accepts the valid forms and rejects each misuse a JSON Schema can express;
    /// the others (contradictions, charsets it cannot list, digests) are lint's alone.
    @Test func theEditorSchemaAgrees() throws {
        let schema = try JSONSchema(JSONParser().parse(Array(ContractFormatSchema.text.utf8)).value, uri: "https://contract.dev/schema/contract-v1.json")
        let directory = golden.directory.appendingPathComponent(Self.folder)
        func value(_ name: String) throws -> JSONValue {
            try JSONParser().parse(Array(Data(contentsOf: directory.appendingPathComponent(name + ".json")))).value
        }
        let valid = schema.validate(try value("valid"))
        #expect(valid.isValid, "\(valid.errors)")
        let expressible = [
            "binary-unknown-key", "binary-not-object", "binary-empty-object", "binary-length-negative", "binary-length-fraction",
            "binary-length-and-bound", "binary-base64-url", "binary-base64-padding", "binary-base64-line-break", "binary-sha256-sha1",
            "binary-sha256-base64", "text-sha256-not-hex", "text-unknown-key", "text-not-object", "text-empty-object", "text-length-and-bound",
            "text-charset-unknown", "text-charset-unsupported", "text-contains-not-array", "text-contains-empty-list",
            "text-contains-empty-string", "text-contains-repeated", "body-text-and-binary", "body-schema-and-binary", "header-repeats-misspelt",
            "header-repeats-not-boolean", "header-repeats-alone", "header-repeats-absent", "header-two-kinds-and-repeats",
        ]
        for name in expressible {
            #expect(!schema.validate(try value(name)).isValid, "\(name) passes the editor schema")
        }
        // Both spellings of a charset name the schema offers are accepted; lint accepts any case.
        for charset in ["utf-8", "UTF-8", "Us-Ascii", "ISO-8859-1"] {
            let contract = try JSONParser().parse(Array("""
                { "id": "a", "request": { "method": "GET", "path": "/a" },
                  "cases": [ { "name": "ok", "response": { "status": 200, "text": { "contains": ["x"], "charset": "\(charset)" } } } ] }
                """.utf8)).value
            #expect(schema.validate(contract).isValid, "\(charset)")
            #expect(Self.snippet(#"{ "status": 200, "text": { "contains": ["x"], "charset": "\#(charset)" } }"#).diagnostics.isEmpty)
        }
    }

    @Test func base64IsStrictAndRoundTrips() throws {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64Text.encode(bytes)
            #expect(text.utf8.count % 4 == 0)
            #expect(try Base64Text.decode(text).get() == bytes)
        }
        #expect(Base64Text.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64Text.encode(Array("fo".utf8)) == "Zm8=")
        for invalid in ["Zm8", "Zm9vY", "Zm=8", "Zm8==", "Zm8=Zm8=", "Zm9v YmFy", "Zm9v_mFy", "===="] {
            #expect(throws: Base64Text.Problem.self, "\(invalid)") { try Base64Text.decode(invalid).get() }
        }
    }

    @Test func charsetsDecodeAndEncodeAsNamed() {
        #expect(TextCharset(name: "ISO-8859-1") == .isoLatin1)
        #expect(TextCharset(name: "latin1") == nil)
        #expect(TextCharset.usASCII.firstUndecodableByte(in: Array("abc\u{E9}".utf8)) == 3)
        #expect(TextCharset.utf8.firstUndecodableByte(in: [0x61, 0xC3, 0x28]) == 1)
        #expect(TextCharset.utf8.firstUndecodableByte(in: [0xED, 0xA0, 0x80]) == 0, "a surrogate is not UTF-8")
        #expect(TextCharset.utf8.firstUndecodableByte(in: [0xC0, 0xAF]) == 0, "an overlong form is not UTF-8")
        #expect(TextCharset.isoLatin1.firstUndecodableByte(in: [0x00, 0x80, 0xFF]) == nil)
        #expect(TextCharset.isoLatin1.encode("Grüße") == [0x47, 0x72, 0xFC, 0xDF, 0x65])
        #expect(TextCharset.isoLatin1.decode([0x47, 0x72, 0xFC, 0xDF, 0x65]) == "Grüße")
        #expect(TextCharset.usASCII.encode("é") == nil)
        #expect(ByteCount.exactly(1024).description == "exactly 1,024 bytes")
        #expect(ByteCount(minimum: 1).description == "at least 1 byte")
        #expect(ByteCount(minimum: 1, maximum: 1_048_576).description == "from 1 to 1,048,576 bytes")
    }
}
