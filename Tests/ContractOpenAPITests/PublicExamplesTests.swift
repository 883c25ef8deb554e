import ContractFixtures
import ContractJSON
import ContractModel
import ContractOpenAPI
import Foundation
import Testing
import TestSupport

/// The public OpenAPI examples in ../shared/openapi import into trees that lint clean.
struct PublicExamplesTests {
    static let documents = [
        "v3.0/petstore.yaml", "v3.0/petstore-expanded.yaml", "v3.0/uspto.yaml", "v3.0/api-with-examples.yaml",
        "v3.0/callback-example.yaml", "v3.0/link-example.yaml", "v3.1/webhook-example.yaml", "v3.1/non-oauth-scopes.yaml",
    ]

    static func importShared(_ name: String) throws -> ImportResult {
        try OpenAPIImporter.importDocument(path: SharedData.url("openapi/" + name).path, shownAs: "openapi/" + name)
    }

    static func load(_ result: ImportResult) -> ContractSet {
        ContractLoader.load(files: result.tree, directory: ".")
    }

    @Test(arguments: documents)
    func importsAndLintsClean(_ name: String) throws {
        let result = try Self.importShared(name)
        guard name != "v3.1/webhook-example.yaml" else {
            // Webhooks only: nothing a server answers, said so, nothing written.
            #expect(result.files.isEmpty)
            #expect(result.diagnostics.contains { $0.message.contains("webhooks (newPet)") && $0.pointer == JSONPointer(tokens: ["webhooks"]) })
            return
        }
        #expect(result.contractCount > 0)
        let set = Self.load(result)
        let report = LintReport(set)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.rendered))")
        #expect(report.contractCount == result.contractCount)
        #expect(report.caseCount == result.caseCount)
        // And the same contracts give unit-test fixtures, one per case.
        let (fixtures, problems) = FixturePlanner(set).plan()
        #expect(problems.isEmpty, "\(problems)")
        #expect(fixtures.count == result.caseCount)
    }

    @Test func whatCannotBeExpressedIsNamedWithItsPlace() throws {
        let callbacks = try Self.importShared("v3.0/callback-example.yaml")
        let callback = try #require(callbacks.diagnostics.first { $0.message.contains("callbacks (onData)") })
        #expect(callback.severity == .warning)
        #expect(callback.rendered.hasPrefix("openapi/v3.0/callback-example.yaml:36:9: warning:"))
        #expect(callback.pointer?.description == "/paths/~1streams/post/callbacks")

        let links = try Self.importShared("v3.0/link-example.yaml")
        #expect(links.diagnostics.filter { $0.severity == .warning && $0.message.contains("links (") }.count == 4)
    }

    @Test func securitySchemesBecomeEnvironmentVariables() throws {
        let result = try Self.importShared("v3.1/non-oauth-scopes.yaml")
        #expect(result.variables.map(\.name) == ["BEARER_AUTH"])
        let contract = try #require(result.files.first { $0.path == "get-users.json" })
        #expect(String(decoding: contract.bytes, as: UTF8.self).contains(#""Authorization": "Bearer ${env:BEARER_AUTH}""#))
    }

    @Test func reimportingGivesTheSameBytes() throws {
        for name in Self.documents {
            #expect(try Self.importShared(name).files == Self.importShared(name).files, "\(name)")
        }
    }

    /// The whole output of two documents, file by file, pinned (RECORD_GOLDEN=1 re-records).
    @Test(arguments: ["petstore-expanded", "uspto"])
    func outputIsPinned(_ name: String) throws {
        let result = try Self.importShared("v3.0/\(name).yaml")
        var text = ""
        // The format's schema is the same for every import (ContractFormatSchemaTests pins it).
        for file in result.files where !file.path.hasPrefix(".") { text += "=== \(file.path)\n" + String(decoding: file.bytes, as: UTF8.self) }
        text += "=== diagnostics\n" + result.diagnostics.map(\.rendered).joined(separator: "\n") + "\n"
        try GoldenFiles().check(text, against: "\(name).txt")
    }
}
