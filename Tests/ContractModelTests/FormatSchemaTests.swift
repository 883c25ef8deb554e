import ContractJSON
import ContractModel
import ContractSchema
import Foundation
import TestSupport
import Testing

/// `docs/contract-v1.schema.json` (the format for editors) must agree with the loader: it accepts
/// every example contract and rejects the broken shapes it can express.
struct FormatSchemaTests {
    static func value(_ path: String) throws -> JSONValue {
        let data = try Data(contentsOf: SharedData.packageRoot.appendingPathComponent(path))
        return try JSONParser().parse(Array(data)).value
    }

    static let formatSchema = Result { try JSONSchema(value("docs/contract-v1.schema.json"), uri: "https://contract.dev/schema/contract-v1.json") }

    static let exampleContracts = ["contracts/health.json"] + [
        "contracts/products/list.json", "contracts/products/get.json", "contracts/products/create.json", "contracts/products/update.json",
        "contracts/products/delete.json",
    ]

    @Test(arguments: exampleContracts)
    func acceptsTheExampleContracts(_ path: String) throws {
        let schema = try Self.formatSchema.get()
        let result = schema.validate(try Self.value(path))
        #expect(result.isValid, "\(result.errors)")
    }

    @Test func rejectsWhatTheLoaderRejects() throws {
        let schema = try Self.formatSchema.get()
        guard case .object(var contract) = try Self.value("contracts/products/get.json"),
            case .array(var cases) = contract["cases"], case .object(var first) = cases[0], case .object(var response) = first["response"]
        else {
            Issue.record("unexpected example shape")
            return
        }
        response["status"] = "ok"
        response["stauts"] = 200
        first["response"] = .object(response)
        cases[0] = .object(first)
        contract["cases"] = .array(cases)
        let errors = schema.validate(.object(contract)).errors
        #expect(errors.contains { $0.instanceLocation.description == "/cases/0/response/status" })
        #expect(errors.contains { $0.instanceLocation.description == "/cases/0/response" && $0.keyword == "additionalProperties" })
    }

    @Test func theExampleTreeLintsClean() throws {
        let set = try ContractLoader.load(directory: SharedData.packageRoot.appendingPathComponent("contracts").path)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics.map(\.rendered))")
        #expect(set.contracts.count == 6)
    }
}
