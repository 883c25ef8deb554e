@testable import ContractFixtures
import ContractModel
import Foundation
import TestSupport
import Testing

/// `contract fixtures` on real folders: deterministic output, --check, ownership and safety.
struct FixtureStoreTests {
    static let packageRoot = SharedData.packageRoot

    /// A copy of the example contracts to edit.
    func contractsCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("contracts"), to: folder)
        return folder
    }

    func plan(_ contracts: URL) throws -> [Fixture] {
        let set = try ContractLoader.load(directory: contracts.path)
        try #require(!set.hasErrors, "\(set.diagnostics)")
        let (fixtures, problems) = FixturePlanner(set).plan()
        try #require(problems.isEmpty, "\(problems)")
        return fixtures
    }

    func outputFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-out-\(UUID().uuidString)")
    }

    func edit(_ file: URL, _ transform: (String) -> String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let edited = transform(text)
        #expect(edited != text, "the edit must change the file")
        try edited.write(to: file, atomically: true, encoding: .utf8)
    }

    /// The example contracts, shown as `contracts/…` wherever the checkout is, as the CLI shows them when run from the root.
    func exampleFixtures() throws -> [Fixture] {
        let directory = Self.packageRoot.appendingPathComponent("contracts").path
        let files = try ContractSourceReader.read(directory: directory).map {
            SourceFile(path: "contracts/" + $0.relativePath, relativePath: $0.relativePath, bytes: $0.bytes)
        }
        let set = ContractLoader.load(files: files, directory: "contracts")
        try #require(!set.hasErrors, "\(set.diagnostics)")
        let (fixtures, problems) = FixturePlanner(set).plan()
        try #require(problems.isEmpty, "\(problems)")
        return fixtures
    }

    @Test func theExampleContractsGiveTheGoldenFixturesEveryTime() throws {
        let fixtures = try exampleFixtures()
        let rendered = fixtures.map { "== \($0.path)\n" + String(decoding: $0.bytes, as: UTF8.self) }.joined()
        try GoldenFiles().check(rendered, against: "example-fixtures.txt")
        #expect(try exampleFixtures() == fixtures, "a second generation is byte-identical")
    }

    @Test func writeThenCheckIsClean() throws {
        let out = outputFolder()
        let fixtures = try plan(Self.packageRoot.appendingPathComponent("contracts"))
        let first = try FixtureStore(directory: out.path).write(fixtures)
        #expect(first.written.count == fixtures.count)
        let second = try FixtureStore(directory: out.path).write(fixtures)
        #expect(second.written.isEmpty && second.unchanged.count == fixtures.count)
        let report = try FixtureStore(directory: out.path).check(fixtures)
        #expect(report.isClean && report.upToDate == fixtures.count)
    }

    @Test func checkFindsAChangedExampleSchemaNewAndRemovedCase() throws {
        let contracts = try contractsCopy()
        let out = outputFolder()
        let store = FixtureStore(directory: out.path)
        _ = try store.write(try plan(contracts))

        try edit(contracts.appendingPathComponent("products/get.json")) { $0.replacing(#""name": "Pencil""#, with: #""name": "Crayon""#) }
        var report = try store.check(try plan(contracts))
        #expect(report.items.map(\.description) == [
            "stale: products.get/found.json: differs from what products.get/found in \(contracts.path)/products/get.json gives now",
        ])

        _ = try store.write(try plan(contracts))
        // A schema change that keeps every example valid still makes the fixtures that use it stale.
        try edit(contracts.appendingPathComponent("schemas/error.json")) { $0.replacing(#""message": { "type": "string" }"#, with: #""message": { "type": "string", "maxLength": 500 }"#) }
        report = try store.check(try plan(contracts))
        #expect(!report.items.isEmpty && report.items.allSatisfy { $0.kind == "stale" && $0.reason.contains("or a schema it uses changed") })
        #expect(report.items.contains { $0.path == "products.get/missing.json" })

        _ = try store.write(try plan(contracts))
        try edit(contracts.appendingPathComponent("health.json")) {
            $0.replacing(#""cases": ["#, with: #""cases": [ { "name": "again", "response": { "status": 200, "example": { "status": "ok" }, "schema": { "type": "object" } } },"#)
        }
        report = try store.check(try plan(contracts))
        #expect(report.items.map(\.kind) == ["missing"])
        #expect(report.items.first?.path == "health.get/again.json")

        try FileManager.default.removeItem(at: contracts.appendingPathComponent("health.json"))
        report = try store.check(try plan(contracts))
        #expect(report.items.map(\.kind) == ["extra"])
        #expect(report.items.first?.reason.contains("health.get/ok") == true)
    }

    @Test func foreignFilesAreNeverOverwrittenOrDeleted() throws {
        let out = outputFolder()
        let fixtures = try plan(Self.packageRoot.appendingPathComponent("contracts"))
        try FileManager.default.createDirectory(at: out.appendingPathComponent("health.get"), withIntermediateDirectories: true)
        let foreign = out.appendingPathComponent("health.get/ok.json")
        try "mine".write(to: foreign, atomically: true, encoding: .utf8)
        let error = #expect(throws: FixtureStoreError.self) { try FixtureStore(directory: out.path).write(fixtures) }
        #expect(error?.description.contains("was not written by contract fixtures") == true)
        #expect(try String(contentsOf: foreign, encoding: .utf8) == "mine")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("contract-fixtures.json").path), "a refused run writes nothing")

        // Beside the owned files, a file of the user's survives writes and removals.
        try FileManager.default.removeItem(at: foreign)
        let notes = out.appendingPathComponent("health.get/NOTES.md")
        try "keep".write(to: notes, atomically: true, encoding: .utf8)
        _ = try FixtureStore(directory: out.path).write(fixtures)
        _ = try FixtureStore(directory: out.path).write(fixtures.filter { $0.contractID != "health.get" })
        #expect(try String(contentsOf: notes, encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("health.get/ok.json").path))
    }

    /// A folder that cannot be changed: the message says why, and the cause is kept.
    @Test func aFolderThatCannotBeWrittenKeepsTheCause() throws {
        let root = outputFolder()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "a file where a folder has to be".write(to: root.appendingPathComponent("file"), atomically: true, encoding: .utf8)
        let error = #expect(throws: FixtureStoreError.self) {
            try FixtureStore(directory: root.appendingPathComponent("file/out").path).write(try exampleFixtures())
        }
        let cause = try #require(error?.underlying.map { "\($0)" }, "the folder's error is kept")
        #expect(error?.diagnostic.message == cause + "; the previous fixtures are unchanged")
        #expect(cause.hasPrefix("cannot create the folder \(root.path)/file: "), "\(cause)")
    }

    @Test func namesThatWouldLeaveTheFolderAreRefused() {
        for name in ["../x", "a/b", ".hidden", "", "a\\b"] { #expect(!FixturePlanner.isSafeComponent(name), "\(name)") }
        #expect(FixturePlanner.isSafeComponent("products.get"))
    }
}

extension FixtureStoreTests {
    @Test func aRunThatFailsWhileWritingLeavesThePreviousSetIntact() throws {
        let contracts = try contractsCopy()
        let out = outputFolder()
        let store = FixtureStore(directory: out.path)
        _ = try store.write(try plan(contracts))
        let before = try String(contentsOf: out.appendingPathComponent("products.get/found.json"), encoding: .utf8)
        let manifestBefore = try Data(contentsOf: out.appendingPathComponent("contract-fixtures.json"))

        // A changed fixture, and a new contract whose folder cannot be made (a file is in the way).
        try edit(contracts.appendingPathComponent("products/get.json")) { $0.replacing(#""name": "Pencil""#, with: #""name": "Crayon""#) }
        try """
            { "id": "zz.blocked", "request": { "method": "GET", "path": "/z" },
              "cases": [ { "name": "ok", "response": { "status": 204, "empty": true } } ] }
            """.write(to: contracts.appendingPathComponent("zz.json"), atomically: true, encoding: .utf8)
        try "in the way".write(to: out.appendingPathComponent("zz.blocked"), atomically: true, encoding: .utf8)

        let error = #expect(throws: FixtureStoreError.self) { try store.write(try plan(contracts)) }
        #expect(error?.description.hasSuffix("zz.blocked is a file, where a folder is needed; the previous fixtures are unchanged") == true)
        #expect(try String(contentsOf: out.appendingPathComponent("products.get/found.json"), encoding: .utf8) == before)
        #expect(try Data(contentsOf: out.appendingPathComponent("contract-fixtures.json")) == manifestBefore)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("products.get").path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }
}
