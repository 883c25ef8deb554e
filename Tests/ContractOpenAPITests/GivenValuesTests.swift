import ContractJSON
import ContractModel
import ContractOpenAPI
import Foundation
import Testing

/// `--value NAME=VALUE`: JSON when it parses, else text; `${env:NAME}` kept as the placeholder it
/// is, so a secret or per-environment value is read when verify runs, not written in the contracts.
struct GivenValuesTests {
    static let document = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /pets/{petId}:
            get:
              parameters:
                - {name: petId, in: path, required: true, schema: {type: integer}}
                - {name: X-Tenant, in: header, required: true, schema: {type: string}, example: acme}
                - {name: note, in: query, schema: {type: string}, example: x}
              responses: {'200': {description: ok}}
        """

    func importDocument(values: [String]) throws -> ImportResult {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("given-\(UUID().uuidString).yaml")
        try Self.document.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try OpenAPIImporter.importDocument(path: url.path, shownAs: "api.yaml", values: try GivenValues.parse(values))
    }

    @Test func valuesAreJSONWhenTheyParseElseText() throws {
        let given = try GivenValues.parse(["petId=42", "name=Rex", "tags=[\"a\"]", "TOKEN=${env:API_TOKEN}", "empty="])
        #expect(given["petId"] == .number(JSONNumber(42)))
        #expect(given["name"] == .string("Rex"))
        #expect(given["tags"] == .array([.string("a")]))
        #expect(given["TOKEN"] == .string("${env:API_TOKEN}"))
        #expect(given["empty"] == .string(""))
    }

    @Test func malformedValuesAreRefused() {
        func refusal(_ text: String) -> String? {
            do {
                _ = try GivenValues.parse([text])
                return nil
            } catch {
                return error.message
            }
        }
        #expect(refusal("petId") == "--value must be 'NAME=VALUE', found 'petId'")
        #expect(refusal("=42") == "--value must be 'NAME=VALUE', found '=42'")
        #expect(refusal("id=${capture:id}")
            == "--value 'id': a value given here may use ${env:NAME}, not ${capture:…}, which only a case's setup steps define")
        #expect(refusal("TOKEN=${env:API TOKEN}")?.hasPrefix("--value 'TOKEN': ") == true)
        #expect(refusal("note=${literal}") == nil, "a '${' that is no placeholder is text")
    }

    /// The placeholder reaches the contracts as written, the variable is listed with the others
    /// the contracts read, and the tree lints; other text is kept literally.
    @Test func anEnvironmentPlaceholderIsKept() throws {
        let result = try importDocument(values: ["X-Tenant=${env:TENANT}", "note=${literal}", "petId=7"])
        let contract = try #require(result.files.first { $0.path == "get-pets-petId.json" }.map { String(decoding: $0.bytes, as: UTF8.self) })
        #expect(contract.contains(#""X-Tenant": "${env:TENANT}""#), "\(contract)")
        #expect(contract.contains(#""note": "$${literal}""#), "\(contract)")
        #expect(contract.contains(#""petId": 7"#), "\(contract)")
        #expect(result.variables.map(\.name) == ["TENANT"])
        #expect(result.variables.first?.usage == "the value given for 'X-Tenant' (--value X-Tenant=…)")
        let set = ContractLoader.load(files: result.tree, directory: ".")
        #expect(!set.hasErrors, "\(set.diagnostics.map(\.rendered))")
        let header = set.contracts.first?.cases.first?.request.headers.first { $0.name == "X-Tenant" }
        #expect(header?.value?.environmentVariables == ["TENANT"])
    }
}
