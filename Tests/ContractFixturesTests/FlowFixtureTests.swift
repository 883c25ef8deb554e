import ContractJSON
import ContractModel
import Testing

@testable import ContractFixtures

/// A flow case's fixture is what an app's test needs offline: the endpoint's request and the
/// answer the schema or example gives. What the flow holds the server to (`values`, captures, a
/// followed `url`, setup and teardown) is known only when it runs, and is not in it.
struct FlowFixtureTests {
    static let contract = """
        { "id": "letters", "request": { "method": "GET", "path": "/letters" },
          "cases": [
            { "name": "second-page",
              "setup": [ { "name": "first", "request": { "method": "GET", "path": "/letters", "query": { "limit": 2 } },
                           "capture": { "next": "/links/next", "first": "/items/0", "etag": { "header": "ETag" } } } ],
              "request": { "url": "${capture:next}", "query": { "limit": 2 } },
              "capture": { "own": { "header": "Location", "pattern": "([0-9]+)$" } },
              "response": { "status": 200, "headers": { "ETag": { "differs": "${capture:etag}" } },
                            "schema": { "type": "object", "required": ["items"], "properties": { "items": { "type": "array", "items": { "type": "string" } } } },
                            "example": { "items": ["c", "d"] },
                            "values": { "/items/0": { "differs": "${capture:first}" }, "/links/next": { "present": false } } } }
          ] }
        """

    @Test func theFixtureIsTheEndpointsRequestAndTheExample() throws {
        let set = ContractLoader.load(files: [SourceFile(path: "c/letters.json", relativePath: "letters.json", bytes: Array(Self.contract.utf8))], directory: "c")
        #expect(!set.hasErrors, "\(set.diagnostics.map(\.rendered))")
        let (fixtures, problems) = FixturePlanner(set).plan()
        #expect(problems.isEmpty, "\(problems.map(\.message))")
        let fixture = try #require(fixtures.first)
        let text = String(decoding: fixture.bytes, as: UTF8.self)
        let document = try JSONParser().parse(fixture.bytes).value
        #expect(document.objectValue?["request"]?.objectValue?["path"] == "/letters", "\(text)")
        #expect(document.objectValue?["request"]?.objectValue?["query"] == [["name": "limit", "value": "2"]], "\(text)")
        #expect(document.objectValue?["response"]?.objectValue?["body"] == ["items": ["c", "d"]], "\(text)")
        for flowWord in ["capture", "values", "differs", "setup", "url", "someElement"] {
            #expect(!text.contains("\"\(flowWord)\""), "\(flowWord) in \(text)")
        }
    }
}
