import ContractJSON
import Foundation
import Testing

@testable import ContractTesting

/// What loading a fixture refuses, and how it says so.
struct StubFixtureLoadTests {
    static func fixture(_ text: String, file: String = "Fixtures/products.get/found.json") throws(FixtureLoadError) -> StubFixture {
        var checks: [String: EndpointCheck] = [:]
        var endpoints: [String: RequestDescription] = [:]
        // The texts here are valid JSON; a parse failure is the test's own mistake.
        let json = (try? JSONParser().parse(Array(text.utf8)).value) ?? .null
        return try StubFixture(json: json, file: file, checks: &checks, endpoints: &endpoints)
    }

    static let endpoint = #""endpoint": {"method": "GET", "pathTemplate": "/products/{id}"}"#

    /// A fixture written before format 2 (no `format`, no endpoint) says to write the folder again,
    /// naming the folder, rather than serving a fixture whose requests nothing can check.
    @Test func aFormatOneFixtureSaysToRunContractFixturesAgain() {
        let error = #expect(throws: FixtureLoadError.self) {
            try Self.fixture(#"{"contract": "products.get", "case": "found", "request": {"method": "GET", "pathTemplate": "/p"}, "response": {"status": 200}}"#)
        }
        #expect(error?.code == .outdatedFixture)
        #expect(error?.description.contains("format 1") == true, "\(String(describing: error))")
        #expect(error?.description.hasSuffix("run 'contract fixtures --out Fixtures CONTRACTS' again") == true, "\(String(describing: error))")
    }

    /// Fixtures in a test bundle are the build's copy: the message names the folder they are
    /// copied from, not the copy the next build overwrites.
    @Test func anOldFixtureInABundleNamesTheFolderItIsCopiedFrom() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("Fixtures/products.get/found.json")
        try FileManager.default.createDirectory(at: old.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"contract": "products.get", "case": "found", "request": {"method": "GET", "pathTemplate": "/p"}, "response": {"status": 200}}"#.utf8)
            .write(to: old)
        let bundle = try #require(Bundle(path: folder.path))
        let error = #expect(throws: FixtureLoadError.self) { try FixtureSet(bundle: bundle) }
        #expect(error?.code == .outdatedFixture)
        #expect(error?.description.hasSuffix(
            "this bundle's 'Fixtures' is a copy of your test target's folder: write that one again ('contract fixtures --out Tests/YourTests/Fixtures CONTRACTS') and build") == true,
            "\(String(describing: error))")
    }

    @Test func aNewerFormatSaysToUpdateThePackage() {
        let error = #expect(throws: FixtureLoadError.self) {
            try Self.fixture(#"{"format": "contract-fixture", "version": 3, "contract": "a", "case": "b"}"#)
        }
        #expect(error?.code == .outdatedFixture)
        #expect(error?.description.contains("newer than this ContractTesting reads (2)") == true, "\(String(describing: error))")
    }

    @Test func anEndpointThatCannotBeReadNamesItsPointer() {
        let error = #expect(throws: FixtureLoadError.self) {
            try Self.fixture(#"""
                {"format": "contract-fixture", "version": 2, "contract": "a", "case": "b",
                 "endpoint": {"method": "GET", "pathTemplate": "/p", "parameters": {"cookie": {}}},
                 "request": {"method": "GET", "pathTemplate": "/p"}, "response": {"status": 200}}
                """#)
        }
        #expect(error?.code == .invalidFixture)
        #expect(error?.description.contains("/endpoint/parameters/cookie") == true, "\(String(describing: error))")
    }

    @Test func aBodyIsWrittenWithSortedKeys() throws {
        let fixture = try Self.fixture(#"""
            {"format": "contract-fixture", "version": 2, "contract": "products.get", "case": "found", \#(Self.endpoint),
             "request": {"method": "GET", "pathTemplate": "/products/{id}"}, "response": {"status": 200, "body": {"b": 1, "a": "x/y"}}}
            """#)
        #expect(fixture.body.map { String(decoding: $0, as: UTF8.self) } == #"{"a":"x/y","b":1}"#)
        #expect(fixture.endpoint.pathTemplate == "/products/{id}")
    }

    /// A header no answer can carry (a line break in its value, a name that is not a token) is
    /// refused where the fixture is read: `serve` would have split its answer there, and a stub
    /// would answer what no server can send. The fixture reader is the one `serve` uses too.
    @Test func aHeaderNoAnswerCanCarryIsRefusedWhereTheFixtureIsRead() {
        for (header, said) in [
            (#"{"name": "X-Id", "value": "1\r\nSet-Cookie: a=b"}"#, #"the response's header 'X-Id' holds "\r""#),
            (#"{"name": "X-Id", "value": "a\u0000b"}"#, #"the response's header 'X-Id' holds "\0""#),
            (#"{"name": "X Id", "value": "1"}"#, "the response's header name 'X Id' is not an HTTP token"),
            (#"{"name": "X-Id:", "value": "1"}"#, "the response's header name 'X-Id:' is not an HTTP token"),
        ] {
            let error = #expect(throws: FixtureLoadError.self) {
                try Self.fixture(#"""
                    {"format": "contract-fixture", "version": 2, "contract": "products.get", "case": "found", \#(Self.endpoint),
                     "request": {"method": "GET", "pathTemplate": "/products/{id}"}, "response": {"status": 200, "headers": [\#(header)]}}
                    """#)
            }
            #expect(error?.code == .invalidFixture, "\(header)")
            #expect(error?.description.contains(said) == true, "\(String(describing: error))")
        }
        // The contract and case names are sent back in every answer too (`Contract-Case`).
        for (contract, caseName) in [("products.get", "ok\\r\\nX-Evil: 1"), ("a\\u001b[31m", "found")] {
            let error = #expect(throws: FixtureLoadError.self) {
                try Self.fixture(#"""
                    {"format": "contract-fixture", "version": 2, "contract": "\#(contract)", "case": "\#(caseName)", \#(Self.endpoint),
                     "request": {"method": "GET", "pathTemplate": "/products/{id}"}, "response": {"status": 200}}
                    """#)
            }
            #expect(error?.description.contains("which the answer's Contract-Case header cannot carry") == true, "\(String(describing: error))")
        }
        // A tab is allowed inside a value.
        #expect(throws: Never.self) {
            try Self.fixture(#"""
                {"format": "contract-fixture", "version": 2, "contract": "products.get", "case": "found", \#(Self.endpoint),
                 "request": {"method": "GET", "pathTemplate": "/products/{id}"}, "response": {"status": 200, "headers": [{"name": "X-Id", "value": "a\tb"}]}}
                """#)
        }
    }
}
