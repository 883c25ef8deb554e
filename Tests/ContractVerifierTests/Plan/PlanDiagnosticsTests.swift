import ContractModel
import TestSupport
import Testing

@testable import ContractVerifier

/// Why a plan cannot run, compiler-style (`path:line:column: error: message [pointer]`), so editors
/// and CI annotate it: pinned by a golden file.
struct PlanDiagnosticsTests {
    /// An unset variable is placed where its first user writes it (the case's own request here,
    /// the endpoint's header in `get.json`); one only a `--header` uses, and an empty selection,
    /// belong to the command line, not to a file. A response schema that does not compile is
    /// placed at the schema.
    static let broken = """
        {
          "id": "products.broken",
          "request": { "method": "GET", "path": "/api/broken" },
          "cases": [
            { "name": "ok", "response": { "status": 200, "schema": { "$ref": "schemas/missing.json" } } }
          ]
        }
        """

    @Test func problemsArePlacedInTheirContracts() throws {
        let set = Fixtures.load([
            "schemas/product.json": Fixtures.product, "get.json": Fixtures.getProduct, "create.json": Fixtures.createProduct,
            "broken.json": Self.broken,
        ])
        var options = VerifyOptions(baseURL: "http://127.0.0.1:1")
        options.extraHeaders = [HeaderField(name: "X-Api-Key", value: try TemplateString(parsing: "${env:API_KEY}"))]
        let error = #expect(throws: DiagnosticsError.self) { try VerifyPlan(set, options: options) }
        try GoldenFiles().check((error?.description ?? "") + "\n", against: "plan-problems.txt")
    }

    /// A case that writes no placeholder of its own uses its endpoint's.
    @Test func theEndpointPlacesAVariableItsCaseInherits() throws {
        let set = Fixtures.load([
            "list.json": """
                {
                  "id": "products.list",
                  "request": { "method": "GET", "path": "/api/products", "headers": { "Authorization": "Bearer ${env:TOKEN}" } },
                  "cases": [ { "name": "ok", "response": { "status": 200 } } ]
                }
                """
        ])
        let error = #expect(throws: DiagnosticsError.self) { try VerifyPlan(set, options: VerifyOptions(baseURL: "http://127.0.0.1:1")) }
        #expect(error?.description
            == "c/list.json:3:88: error: environment variable TOKEN is not set; it is used by products.list/ok [/request/headers/Authorization]")
    }

    @Test func withoutTheContractDocumentsTheFileAndPointerRemain() throws {
        var set = Fixtures.tree
        set.dropContractDocuments()
        let error = #expect(throws: DiagnosticsError.self) { try VerifyPlan(set, options: VerifyOptions(baseURL: "http://127.0.0.1:1")) }
        #expect(error?.diagnostics.first?.rendered
            == "c/create.json: error: environment variable TOKEN is not set; it is used by products.create/copy, products.get/found [/cases/0]")
    }

    @Test func anEmptySelectionIsAnArgumentError() throws {
        var options = VerifyOptions(baseURL: "http://127.0.0.1:1")
        options.selection.ids = ["nothing.*"]
        let error = #expect(throws: DiagnosticsError.self) { try VerifyPlan(Fixtures.tree, options: options) }
        #expect(error?.diagnostics == [.argumentError("no case matches the selection (--id, --tag)")])
        #expect(error?.description == "error: no case matches the selection (--id, --tag)")
    }
}
