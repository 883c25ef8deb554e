import ContractJSON
import ContractModel
import ContractSchema
import Foundation
import TestSupport
import Testing

@testable import ContractFixtures

/// Fixtures of `binary` bodies and `text` conditions: the bytes or text written, each passing its
/// own case by the check `contract verify` makes (``TextConditions/mismatches(_:regex:)``,
/// ``BinaryExpectation/mismatches(_:)``), and a case no body can be made for reported, not written.
struct BodyExpectationFixtureTests {
    static let golden = GoldenFiles()

    static func contract(_ cases: [(name: String, response: String)]) -> String {
        let listed = cases.map { #"{ "name": "\#($0.name)", "response": \#($0.response) }"# }
        return """
            { "id": "bodies", "request": { "method": "GET", "path": "/b" },
              "cases": [
                \(listed.joined(separator: ",\n    "))
              ] }
            """
    }

    static let cases: [(name: String, response: String)] = [
        ("binary-bytes", #"{ "status": 200, "binary": { "base64": "iVBORw0KGgo=", "length": 8 } }"#),
        ("binary-length", #"{ "status": 200, "binary": { "length": 16 } }"#),
        ("binary-bounds", #"{ "status": 200, "headers": { "Content-Type": "image/png" }, "binary": { "minLength": 3, "maxLength": 1048576 } }"#),
        ("binary-at-most", #"{ "status": 200, "binary": { "maxLength": 10 } }"#),
        ("text-contains-length", #"{ "status": 200, "text": { "contains": ["status", "OK"], "length": 16 } }"#),
        ("text-pattern-contains", #"{ "status": 200, "text": { "pattern": "^id=[0-9]{3}$", "contains": ["id="], "maxLength": 6 } }"#),
        ("text-pattern-bounded", #"{ "status": 200, "text": { "pattern": "^[a-z]+$", "minLength": 12, "maxLength": 12 } }"#),
        ("text-contains-after-pattern", #"{ "status": 200, "text": { "pattern": "^HTTP", "contains": ["items: 3"], "minLength": 20 } }"#),
        ("text-ascii", #"{ "status": 200, "text": { "contains": ["OK"], "charset": "us-ascii" } }"#),
        ("text-latin1", #"{ "status": 200, "text": { "equals": "Grüße", "charset": "ISO-8859-1" } }"#),
        ("text-latin1-ascii", #"{ "status": 200, "text": { "equals": "Hello", "charset": "iso-8859-1" } }"#),
        ("text-equals-digest",
            #"{ "status": 200, "text": { "equals": "OK", "sha256": "565339bc4d33d72817b583024112eb7f5cdf3e5eef0252d6ec1b9c9a94e12bb3", "length": 2 } }"#),
        ("text-pattern", #"{ "status": 200, "text": { "pattern": "^pong$" } }"#),
        ("text-equals", #"{ "status": 200, "text": "pong" }"#),
    ]

    func plan(_ files: [String: String]) -> (fixtures: [Fixture], problems: [String]) {
        let sources = files.keys.sorted().map { SourceFile(path: "c/" + $0, relativePath: $0, bytes: Array(files[$0, default: ""].utf8)) }
        let set = ContractLoader.load(files: sources, directory: "c")
        #expect(!set.hasErrors, "\(set.diagnostics.map(\.rendered))")
        let (fixtures, problems) = FixturePlanner(set).plan()
        return (fixtures, problems.map(\.message))
    }

    func response(_ fixture: Fixture) throws -> JSONObject {
        let document = try JSONParser().parse(fixture.bytes).value
        return try #require(document.objectValue?["response"]?.objectValue)
    }

    /// The body a stub serves for the fixture: `text` as UTF-8, `base64` decoded, else nothing.
    func servedBody(_ response: JSONObject) throws -> [UInt8] {
        if let text = response["text"]?.stringValue { return Array(text.utf8) }
        if let base64 = response["base64"]?.stringValue { return try Base64Text.decode(base64).get() }
        #expect(response["body"] == nil)
        return []
    }

    func header(_ response: JSONObject, _ name: String) -> String? {
        response["headers"]?.arrayValue?.compactMap(\.objectValue).first { $0["name"]?.stringValue == name }?["value"]?.stringValue
    }

    @Test func everyFixturePassesItsOwnCase() throws {
        let (fixtures, problems) = plan(["bodies.json": Self.contract(Self.cases)])
        #expect(problems.isEmpty, "\(problems)")
        #expect(fixtures.count == Self.cases.count)
        let set = ContractLoader.load(
            files: [SourceFile(path: "c/bodies.json", relativePath: "bodies.json", bytes: Array(Self.contract(Self.cases).utf8))], directory: "c")
        let contract = try #require(set.contracts.first)
        for fixture in fixtures {
            let testCase = try #require(contract.cases.first { $0.name == fixture.caseName })
            let body = try servedBody(try response(fixture))
            switch testCase.response.body.base {
            case .binary(let expectation):
                #expect(expectation.mismatches(body).isEmpty, "\(fixture.caseName)")
            case .text(let matcher):
                #expect(matcher.conditions.mismatches(body, regex: { try? ECMARegex($0) }).isEmpty, "\(fixture.caseName): \(body)")
            default:
                Issue.record("\(fixture.caseName) has no body expectation")
            }
        }
        var written = ""
        for fixture in fixtures { written += "== \(fixture.path)\n" + String(decoding: fixture.bytes, as: UTF8.self) + "\n" }
        try Self.golden.check(written, against: "body-expectations-fixtures.txt")
    }

    @Test func theBytesAreWrittenAsBase64() throws {
        let (fixtures, _) = plan(["bodies.json": Self.contract(Self.cases)])
        func fixture(_ name: String) throws -> JSONObject { try response(try #require(fixtures.first { $0.caseName == name })) }
        let bytes = try fixture("binary-bytes")
        #expect(bytes["base64"] == .string("iVBORw0KGgo="))
        #expect(header(bytes, "Content-Type") == "application/octet-stream")
        // Without the bytes, zeros of the exact or least length; the case's own Content-Type is kept.
        #expect(try servedBody(try fixture("binary-length")) == [UInt8](repeating: 0, count: 16))
        let bounds = try fixture("binary-bounds")
        #expect(try servedBody(bounds) == [0, 0, 0])
        #expect(header(bounds, "Content-Type") == "image/png")
        let atMost = try fixture("binary-at-most")
        #expect(atMost["base64"] == nil && atMost["text"] == nil && atMost["body"] == nil)
    }

    @Test func textIsMadeFromItsConditions() throws {
        let (fixtures, _) = plan(["bodies.json": Self.contract(Self.cases)])
        func text(_ name: String) throws -> String? { try response(try #require(fixtures.first { $0.caseName == name }))["text"]?.stringValue }
        #expect(try text("text-contains-length") == "status OK       ")
        #expect(try text("text-pattern-contains") == "id=012")
        #expect(try text("text-contains-after-pattern") == "HTTP items: 3       ")
        #expect(try text("text-pattern-bounded")?.utf8.count == 12)
        #expect(try text("text-equals-digest") == "OK")
        // The forms text always had give the fixtures they always gave.
        #expect(try text("text-pattern") == "pong")
        #expect(try text("text-equals") == "pong")
        let ascii = try response(try #require(fixtures.first { $0.caseName == "text-ascii" }))
        #expect(ascii["text"] == .string("OK"))
        #expect(header(ascii, "Content-Type") == "text/plain; charset=us-ascii")
    }

    /// ISO-8859-1 beyond ASCII is not its own UTF-8: the fixture holds the bytes, so a stub serves
    /// what the server would.
    @Test func latin1TextIsWrittenAsItsBytes() throws {
        let (fixtures, _) = plan(["bodies.json": Self.contract(Self.cases)])
        let latin1 = try response(try #require(fixtures.first { $0.caseName == "text-latin1" }))
        #expect(latin1["text"] == nil)
        #expect(try servedBody(latin1) == [0x47, 0x72, 0xFC, 0xDF, 0x65])
        #expect(header(latin1, "Content-Type") == "text/plain; charset=iso-8859-1")
        let ascii = try response(try #require(fixtures.first { $0.caseName == "text-latin1-ascii" }))
        #expect(ascii["text"] == .string("Hello"))
    }

    /// A digest cannot be met without what it is of, and a pattern can rule out a substring in a
    /// way lint cannot see: those cases get no fixture, and say what to add.
    @Test func aBodyThatCannotBeMadeIsAProblem() {
        let (fixtures, problems) = plan(["bodies.json": Self.contract([
            ("binary-digest", #"{ "status": 200, "binary": { "sha256": "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6" } }"#),
            ("text-digest", #"{ "status": 200, "text": { "sha256": "565339bc4d33d72817b583024112eb7f5cdf3e5eef0252d6ec1b9c9a94e12bb3", "maxLength": 9 } }"#),
            ("text-pattern-excludes", #"{ "status": 200, "text": { "pattern": "^[0-9]+$", "contains": ["OK"] } }"#),
        ])])
        #expect(fixtures.isEmpty)
        #expect(problems == [
            "cannot make a binary body whose SHA-256 is 4c4b6a3be131…; add 'base64' (the bytes themselves) to its 'binary'",
            "cannot make a text body whose SHA-256 is 565339bc4d33…; add 'equals' (the text itself) to its 'text'",
            "cannot make a text body matching '^[0-9]+$', containing every 'contains' substring; add 'equals' with a text that passes to its 'text'",
        ])
    }
}
