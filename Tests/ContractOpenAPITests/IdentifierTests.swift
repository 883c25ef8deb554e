import ContractJSON
import ContractModel
import Foundation
import Testing

@testable import ContractOpenAPI

/// The import makes contract ids and case names that lint accepts and that are fixture paths on
/// every platform, whatever the document calls its operations and examples.
struct IdentifierTests {
    func importYAML(_ yaml: String) throws(DiagnosticsError) -> ImportResult {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("identifiers-\(UUID().uuidString).yaml")
        try? yaml.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try OpenAPIImporter.importDocument(path: url.path, shownAs: "api.yaml")
    }

    func lintErrors(_ result: ImportResult) -> [String] {
        let set = ContractLoader.load(files: result.tree, directory: ".")
        return LintReport(set).diagnostics.filter { $0.severity == .error }.map(\.rendered)
    }

    /// The contracts' ids and case names, in the order of their files.
    func contracts(_ result: ImportResult) throws -> [(id: String, file: String, cases: [String])] {
        try result.files.filter { !$0.path.hasPrefix("schemas/") && !$0.path.hasPrefix(".") }.compactMap { file in
            let contract = try JSONParser().parse(file.bytes).value
            guard let id = contract.objectValue?["id"]?.stringValue else { return nil }
            let cases = (contract.objectValue?["cases"]?.arrayValue ?? []).compactMap { $0.objectValue?["name"]?.stringValue }
            return (id, file.path, cases)
        }
    }

    static let long = String(repeating: "a", count: 300)

    static func document(operations: [(operationID: String, path: String)]) -> String {
        var yaml = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n"
        for operation in operations {
            yaml += "  \(operation.path):\n    get:\n      operationId: '\(operation.operationID)'\n      responses:\n        '200': {description: ok}\n"
        }
        return yaml
    }

    @Test func operationIdsThatAreNoFixturePathBecomeOnesThatAre() throws {
        let result = try importYAML(Self.document(operations: [
            ("con", "/a"), ("Aux", "/b"), ("contract-fixtures.json", "/c"), ("nul.get", "/d"), ("list.", "/e"),
            (Self.long, "/f"), (Self.long + "b", "/g"), ("getThing", "/h"), ("GetThing", "/i"), ("com1", "/j"), ("COM1", "/k"),
        ]))
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
        let ids = try contracts(result).map(\.id)
        #expect(ids.sorted() == [
            "con_", "Aux_", "contract-fixtures_.json", "nul_.get", "list",
            String(repeating: "a", count: 200), String(repeating: "a", count: 198) + "-2", "getThing", "GetThing-2", "com1_", "COM1_-2",
        ].sorted())
        #expect(try contracts(result).allSatisfy { $0.file == $0.id + ".json" })
        for id in ids { #expect(FixturePathName.problem(with: id, as: .contractID) == nil, "\(id)") }
    }

    @Test func exampleNamesThatAreNoFixturePathBecomeCaseNamesThatAre() throws {
        let names = ["Big", "big", "dot.", Self.long, "contract-fixtures"]
        let examples = "{" + names.map { "'\($0)': {value: x}" }.joined(separator: ", ") + "}"
        let yaml = """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /a:
                get:
                  operationId: search
                  parameters:
                    - {name: q, in: query, schema: {type: string}, examples: \(examples)}
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {type: string}, examples: \(examples)}}}
            """
        let result = try importYAML(yaml)
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
        #expect(try contracts(result).first?.cases == ["Big", "big-2", "dot", String(repeating: "a", count: 200), "contract-fixtures_"])
    }

    @Test func caseNamesAreRepairedLikeIds() {
        var taken: Set<String> = []
        let names = ["contract-fixtures", "Contract-Fixtures", "con", "a.", "a", String(repeating: "x", count: 250), String(repeating: "x", count: 201)]
            .map { Identifiers.uniqueFixtureName($0, as: .caseName, taken: &taken) }
        #expect(names == [
            "contract-fixtures_", "Contract-Fixtures_-2", "con_", "a", "a-2", String(repeating: "x", count: 200), String(repeating: "x", count: 198) + "-2",
        ])
    }

    @Test func fileNamesOfSchemasAreNoDevices() {
        #expect(Identifiers.fileSafe("Aux") == "Aux_")
        #expect(Identifiers.fileSafe("Pet.") == "Pet")
        #expect(Identifiers.fileSafe("Pet") == "Pet")
    }
}
