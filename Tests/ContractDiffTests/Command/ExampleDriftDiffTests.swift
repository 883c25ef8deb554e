import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractDiff

/// The example API's drifting mode, written as edits to the example contracts: each drift a
/// client would meet is a breaking change, placed in both trees; renaming a schema file and
/// updating its references is no change at all.
@Suite(.serialized)
struct ExampleDriftDiffTests {
    static let contracts = SharedData.packageRoot.appendingPathComponent("contracts")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diff-drift-\(UUID().uuidString)")

    func copy(_ name: String) throws -> URL {
        let copy = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.contracts, to: copy)
        return copy
    }

    func edit(_ tree: URL, _ file: String, _ edits: [(String, String)]) throws {
        let url = tree.appendingPathComponent(file)
        var text = try String(contentsOf: url, encoding: .utf8)
        for (old, new) in edits {
            #expect(text.contains(old), "\(file) holds '\(old)'")
            text = text.replacingOccurrences(of: old, with: new)
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func diff(_ old: URL, _ new: URL) throws -> DiffResult {
        let before = try DiffSource.load(old.lastPathComponent, workingDirectory: folder.path).get()
        let after = try DiffSource.load(new.lastPathComponent, workingDirectory: folder.path).get()
        return DiffRun.compare(old: before, new: after)
    }

    /// The four drifts of `MarketAPI --drift` (Rendering.swift) that change the shape of a response,
    /// as a team would write them into the contracts to match the server: `createdAt` renamed
    /// `created_at`, `price` sent as a string, no `Location` on a create, and 200 with a body for a
    /// delete. (The others change what the server keeps, which only a flow sees.)
    func writeDrift(into tree: URL) throws {
        try edit(tree, "schemas/product.json", [
            (#""required": ["id", "name", "price", "currency", "createdAt", "updatedAt"]"#, #""required": ["id", "name", "price", "currency", "created_at", "updatedAt"]"#),
            (#""createdAt": { "type": "string", "format": "date-time" }"#, #""created_at": { "type": "string", "format": "date-time" }"#),
            (##""price": { "$ref": "#/$defs/Price" }"##, #""price": { "type": "string", "pattern": "^[0-9]+\\.[0-9]+$" }"#),
        ])
        try edit(tree, "products/create.json", [
            (#""Content-Type": { "pattern": "^application/json" },"#, #""Content-Type": { "pattern": "^application/json" }"#),
            (#"          "Location": { "pattern": "^/api/products/[0-9]+$" }"# + "\n", ""),
        ])
        try edit(tree, "products/delete.json", [
            (#""response": { "status": 204, "empty": true }"#, #""response": { "status": 200, "schema": { "type": "object", "required": ["deleted"], "properties": { "deleted": { "type": "integer" } } } }"#),
        ])
        // The examples follow, so the tree lints clean.
        for file in ["products/get.json", "products/list.json", "products/create.json", "products/update.json"] {
            let url = tree.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            // Only the response's example: the request a create sends keeps its number.
            let example = try #require(text.range(of: "\"example\""))
            let rest = text[example.lowerBound...].replacingOccurrences(of: "\"createdAt\"", with: "\"created_at\"")
                .replacingOccurrences(of: #"("price": )([0-9]+\.[0-9]+)"#, with: "$1\"$2\"", options: .regularExpression)
            try (text[..<example.lowerBound] + rest).write(to: url, atomically: true, encoding: .utf8)
        }
    }

    @Test func everyDriftOfTheExampleAPIIsBreaking() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try copy("old")
        let new = try copy("new")
        try writeDrift(into: new)
        let result = try diff(old, new)
        let breaking = result.changes.filter { $0.severity == .breaking }
        func has(_ rule: String, _ name: String, _ subject: String) -> Change? {
            breaking.first { $0.rule == rule && $0.name == name && $0.subject == subject }
        }
        let price = try #require(has("response-type-changed", "products.get/found", "response body /price"), "\(result.changes.map(\.rule))")
        #expect(price.old?.value == #""number""# && price.new?.value == #""string""#)
        #expect(price.old?.location == "old/schemas/product.json:25:24", "placed where OLD's $defs writes the type")
        #expect(price.new?.location == "new/schemas/product.json:10:24")
        #expect(price.fixtures == ["products.get/found.json"])
        let renamed = try #require(has("response-required-property-removed", "products.list/first-page", "response body /items/*/createdAt"))
        #expect(renamed.message.hasSuffix("required property 'createdAt' taken out; renamed 'created_at'?"), "the same schema under a new name: \(renamed.message)")
        #expect(has("response-header-removed", "products.create/created", "response header 'Location'") != nil)
        #expect(has("response-status-changed", "products.delete/deleted", "status") != nil)
        #expect(result.exitCode(failOn: .breaking) == 1)
        // The app's fixtures say so too: they no longer match what the server sends.
        let stale = Set(result.changes.filter { $0.rule == "fixture-no-longer-matches" }.compactMap(\.caseName))
        #expect(stale == ["found", "read-back", "read-after-update", "first-page", "created", "deleted", "updated"])
        // A number's bounds say nothing of a price that is a string now: no noise about them.
        #expect(!result.changes.contains { $0.rule.contains("minimum") || $0.rule.contains("multiple-of") })
    }

    @Test func aSchemaFileRenamedWithItsReferencesIsNoChange() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try copy("old")
        let new = try copy("new")
        try FileManager.default.moveItem(at: new.appendingPathComponent("schemas/product.json"), to: new.appendingPathComponent("schemas/item.json"))
        for file in [
            "products/get.json", "products/create.json", "products/update.json", "schemas/product-page.json", "schemas/new-product.json",
            "schemas/product-changes.json",
        ] {
            try edit(new, file, [("\"product.json", "\"item.json"), ("/product.json", "/item.json")].filter { edit in
                (try? String(contentsOf: new.appendingPathComponent(file), encoding: .utf8).contains(edit.0)) == true
            })
        }
        let result = try diff(old, new)
        #expect(result.changes.isEmpty, "\(result.changes.map { "\($0.rule) \($0.name) \($0.subject)" })")
    }

    @Test func identicalTreesHaveNoChange() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try diff(try copy("old"), try copy("new"))
        #expect(result.changes.isEmpty)
    }
}
