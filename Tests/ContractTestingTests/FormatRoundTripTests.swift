import ContractFixtures
import ContractJSON
import ContractModel
import ContractTesting
import Foundation
import TestSupport
import Testing

/// Fixture files, fed to ContractTesting's loader (``FixtureSet``) as `contract fixtures`
/// (``FixturePlanner``, ``FixtureStore``) writes them: each fixture read says what its file says.
struct FormatRoundTripTests {
    /// A contract whose bodies hold what a JSON round trip through Foundation might change:
    /// awkward strings, numbers past a Double's precision, exponents, a text and a binary body.
    static let awkwardContract = #"""
        { "id": "odd.get", "request": { "method": "GET", "path": "/odd/{id}", "query": { "q": "a b&c=d", "é": "漢字" } },
          "cases": [
            { "name": "json", "request": { "pathParams": { "id": "1" } },
              "response": { "status": 200, "headers": { "X-Odd": "quote \" é 漢字" },
                "schema": { "type": "object" },
                "example": { "text": "quote \" backslash \\ slash / tab \t newline \n nul \u0000 escape \u001b[31m é 漢字 😀 \u2028",
                          "big": 9007199254740993, "decimal": 0.1, "price": 1.50, "tiny": 1e-7, "large": 1e300, "negative": -0.0,
                          "nested": [[], {}, [null, true, false]], "empty": "" } } },
            { "name": "text", "request": { "pathParams": { "id": "2" } },
              "response": { "status": 404, "headers": { "Content-Type": "text/plain; charset=utf-8" }, "text": "no such thing: é 漢字 😀\n" } },
            { "name": "binary", "request": { "pathParams": { "id": "3" } },
              "response": { "status": 200, "binary": { "base64": "iVBORw0KGgoA/w==" } } }
          ] }
        """#

    func written(_ set: ContractSet) throws -> (fixtures: [Fixture], loaded: FixtureSet) {
        let plan = FixturePlanner(set).plan()
        #expect(plan.problems.isEmpty, "\(plan.problems)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-round-trip-\(UUID().uuidString)")
        _ = try FixtureStore(directory: folder.path).write(plan.fixtures)
        defer { try? FileManager.default.removeItem(at: folder) }
        return (plan.fixtures, try FixtureSet(directory: folder))
    }

    /// Each loaded fixture against its file, read with contract's own JSON reader.
    func expectSame(_ fixtures: [Fixture], _ loaded: FixtureSet) throws {
        #expect(loaded.fixtures.count == fixtures.count)
        let byName = Dictionary(loaded.fixtures.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for fixture in fixtures {
            let name = "\(fixture.contractID)/\(fixture.caseName)"
            let stub = try #require(byName[name], "\(name) was not loaded")
            let file = try #require(try JSONParser().parse(fixture.bytes).value.objectValue)
            let request = try #require(file["request"]?.objectValue)
            let response = try #require(file["response"]?.objectValue)
            #expect(stub.contract == file["contract"]?.stringValue && stub.caseName == file["case"]?.stringValue, "\(name)")
            #expect(stub.method == request["method"]?.stringValue && stub.pathTemplate == request["pathTemplate"]?.stringValue, "\(name)")
            let query = (request["query"]?.arrayValue ?? []).map { URLQueryItem(name: $0.objectValue?["name"]?.stringValue ?? "", value: $0.objectValue?["value"]?.stringValue) }
            #expect(stub.query == query, "\(name)")
            #expect(JSONValue.number(JSONNumber(stub.status)) == response["status"], "\(name)")
            let headers = (response["headers"]?.arrayValue ?? []).compactMap { header -> (String, String)? in
                guard let name = header.objectValue?["name"]?.stringValue, let value = header.objectValue?["value"]?.stringValue else { return nil }
                return (name, value)
            }
            #expect(Set(headers.map(\.0)).count == headers.count, "\(name): a header written twice is one in the loaded fixture")
            #expect(stub.headers == Dictionary(headers, uniquingKeysWith: { _, last in last }), "\(name)")
            if let body = response["body"] {
                let served = try #require(stub.body, "\(name): the body was not loaded")
                #expect(try JSONParser().parse(Array(served)).value == body, "\(name): served \(String(decoding: served, as: UTF8.self))")
            } else if let text = response["text"]?.stringValue {
                #expect(stub.body == Data(text.utf8), "\(name)")
            } else if let base64 = response["base64"]?.stringValue {
                #expect(stub.body == Data(base64Encoded: base64), "\(name)")
            } else {
                #expect(stub.body == nil, "\(name)")
            }
        }
    }

    /// The example contracts, as `contract fixtures --out` writes them.
    @Test func theExampleFixturesLoadAsWritten() throws {
        let set = try ContractLoader.load(directory: SharedData.packageRoot.appendingPathComponent("contracts").path)
        try #require(!set.hasErrors, "\(set.diagnostics)")
        let (fixtures, loaded) = try written(set)
        try expectSame(fixtures, loaded)
    }

    /// Awkward text, numbers, a text body and a binary one.
    @Test func awkwardFixturesLoadAsWritten() throws {
        let set = ContractLoader.load(
            files: [SourceFile(path: "c/odd.json", relativePath: "odd.json", bytes: Array(Self.awkwardContract.utf8))], directory: "c")
        try #require(!set.hasErrors, "\(set.diagnostics)")
        let (fixtures, loaded) = try written(set)
        try expectSame(fixtures, loaded)
    }
}
