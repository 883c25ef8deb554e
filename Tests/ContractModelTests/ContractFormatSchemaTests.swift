import ContractJSON
import ContractModel
import Foundation
import TestSupport
import Testing

/// The format's schema the import writes for editors is the one in docs, and a JSON Schema.
struct ContractFormatSchemaTests {
    @Test func theEmbeddedSchemaIsTheDocumentedOne() throws {
        let documented = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("docs/contract-v1.schema.json"), encoding: .utf8)
        #expect(ContractFormatSchema.text + "\n" == documented, "update Sources/ContractModel/Model/ContractFormatSchema.swift from docs/contract-v1.schema.json")
        #expect(throws: Never.self) { try JSONParser().parse(Array(ContractFormatSchema.text.utf8)) }
    }
}
