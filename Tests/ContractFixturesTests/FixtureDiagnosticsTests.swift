import ContractJSON
import ContractModel
import TestSupport
import Testing

@testable import ContractFixtures

/// A case that cannot get a fixture is reported compiler-style, at its case
/// (`path:line:column: error: message [pointer]`), so editors and CI annotate it: pinned by a
/// golden file.
struct FixtureDiagnosticsTests {
    static let files = [
        "odd.json": """
            { "id": "odd", "request": { "method": "GET", "path": "/odd" },
              "cases": [
                { "name": "fine", "response": { "status": 204 } },
                { "name": "lookahead", "response": { "status": 200, "schema": { "type": "string", "pattern": "^(?=a)b$" } } }
              ] }
            """,
        "nested/digest.json": """
            {
              "id": "digest",
              "request": { "method": "GET", "path": "/digest" },
              "cases": [
                {
                  "name": "sha",
                  "response": { "status": 200, "binary": { "sha256": "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6" } }
                }
              ]
            }
            """,
    ]

    @Test func problemsArePlacedAtTheirCases() throws {
        let sources = Self.files.keys.sorted().map { SourceFile(path: "contracts/" + $0, relativePath: $0, bytes: Array(Self.files[$0, default: ""].utf8)) }
        let set = ContractLoader.load(files: sources, directory: "contracts")
        #expect(!set.hasErrors, "\(set.diagnostics.map(\.rendered))")
        let planner = FixturePlanner(set)
        let (fixtures, problems) = planner.plan()
        #expect(fixtures.map(\.path) == ["odd/fine.json"])
        let printed = planner.diagnostics(for: problems).map(\.rendered).joined(separator: "\n") + "\n"
        try GoldenFiles().check(printed, against: "fixture-problems.txt")
    }

    /// A header pattern whose only values hold a line break gets no fixture: the value found
    /// could not be carried by any answer (`serve` would split its answer at it). A pattern that
    /// allows a value without one gets that value.
    @Test func aHeaderPatternMatchingOnlyLineBreaksGetsNoFixture() throws {
        let text = #"""
            { "id": "split", "request": { "method": "GET", "path": "/split" },
              "cases": [
                { "name": "broken", "response": { "status": 204, "headers": { "X-Id": { "pattern": "^a\\r\\nb$" } } } },
                { "name": "spaced", "response": { "status": 204, "headers": { "X-Id": { "pattern": "^a\\tb$" } } } },
                { "name": "either", "response": { "status": 204, "headers": { "X-Id": { "pattern": "^a(?:\\r\\n|\\t)b$|^\\cJ$" } } } },
                { "name": "control-class", "response": { "status": 204, "headers": { "X-Id": { "pattern": "^[\\u0000-\\u0008k]{3}$" } } } }
              ] }
            """#
        let set = ContractLoader.load(files: [SourceFile(path: "contracts/split.json", relativePath: "split.json", bytes: Array(text.utf8))], directory: "contracts")
        #expect(!set.hasErrors, "\(set.diagnostics.map(\.rendered))")
        let planner = FixturePlanner(set)
        let (fixtures, problems) = planner.plan()
        #expect(fixtures.map(\.path).sorted() == ["split/control-class.json", "split/either.json", "split/spaced.json"])
        let values = try fixtures.map { fixture in
            try JSONParser().parse(fixture.bytes).value.objectValue?["response"]?.objectValue?["headers"]?.arrayValue?.first?.objectValue?["value"]?.stringValue ?? ""
        }
        #expect(values.sorted() == ["a\tb", "a\tb", "kkk"], "a value the pattern allows without a line break: \(values)")
        let said = planner.diagnostics(for: problems).map(\.rendered).joined(separator: "\n")
        #expect(said.contains("cannot make a value for header 'X-Id' matching '^a\\r\\nb$' that a header can carry"), "\(said)")
    }
}
