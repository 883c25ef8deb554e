@testable import ContractFixtures
import ContractModel
import Foundation
import Testing

/// The fixtures manifest (`contract-fixtures.json`), fed to its reader as ``FixtureStore`` writes it.
struct FormatRoundTripTests {
    static let awkward = "quote \" backslash \\ slash / tab \t newline \n return \r nul \u{0} escape \u{1B}[31m del \u{7F} é 漢字 😀 e\u{301} \u{2028} \u{FEFF}"

    /// What a run of `contract fixtures` writes for the example contracts, read back from the folder.
    @Test func theManifestAFixturesRunWritesReadsBack() throws {
        let set = try ContractLoader.load(directory: FixtureStoreTests.packageRoot.appendingPathComponent("contracts").path)
        try #require(!set.hasErrors, "\(set.diagnostics)")
        let (fixtures, problems) = FixturePlanner(set).plan()
        try #require(problems.isEmpty && !fixtures.isEmpty, "\(problems)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-round-trip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try FixtureStore(directory: folder.path).write(fixtures)

        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(FixtureManifest.fileName)))
        let read = try FixtureManifest(parsing: bytes)
        #expect(read == FixtureManifest(fixtures))
        #expect(read.bytes == bytes)
        for entry in read.entries {
            let written = Array(try Data(contentsOf: folder.appendingPathComponent(entry.path)))
            #expect(SHA256.hex(written) == entry.contentHash, "\(entry.path)")
        }
        #expect(try FixtureStore(directory: folder.path).check(fixtures).isClean)
    }

    /// Every field holding awkward text, written and read back.
    @Test func aManifestWithAwkwardTextReadsBack() throws {
        let fixtures = [
            Fixture(
                path: "odd/é 漢字 😀 \" x.json", bytes: Array("{}".utf8), contractID: "odd.\(Self.awkward)", caseName: Self.awkward,
                source: "\(Self.awkward).json", shownSource: "", sourceHash: Self.awkward),
            Fixture(path: "a/b.json", bytes: [], contractID: "", caseName: "", source: "", shownSource: "", sourceHash: ""),
        ]
        let manifest = FixtureManifest(fixtures)
        let read = try FixtureManifest(parsing: manifest.bytes)
        #expect(read == manifest)
        #expect(read.bytes == manifest.bytes)
    }
}
