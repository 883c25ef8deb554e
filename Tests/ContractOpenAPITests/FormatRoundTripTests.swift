import ContractJSON
import ContractModel
import Foundation
import Testing
import TestSupport

@testable import ContractOpenAPI

/// The import manifest (`.contract-import.json`), fed to its reader as ``ImportWriter`` writes it.
/// (The contracts an import writes are read by ContractLoader without a diagnostic in
/// `PublicExamplesTests.importsAndLintsClean`.)
struct FormatRoundTripTests {
    static let awkward = "quote \" backslash \\ slash / tab \t newline \n return \r nul \u{0} escape \u{1B}[31m del \u{7F} é 漢字 😀 e\u{301} \u{2028} \u{FEFF}"

    /// An import written into a folder: its manifest reads back as the files and values written,
    /// and a second import of the same document finds every file as the first left it.
    @Test func theManifestAnImportWritesReadsBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-round-trip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let values: [String: JSONValue] = [
            "petId": .number(JSONNumber(9_007_199_254_740_993)), "X-Tenant": .string(Self.awkward), "note": .array([.null, .bool(true), .object(JSONObject())]),
        ]
        let result = try OpenAPIImporter.importDocument(path: SharedData.url("openapi/v3.0/petstore.yaml").path, shownAs: "openapi/v3.0/petstore.yaml", values: values)
        try #require(!result.files.isEmpty)
        let outcome = try ImportWriter.write(result, to: folder.path, source: "openapi/\(Self.awkward).yaml", values: values)
        #expect(outcome.written.count == result.files.count)

        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(ImportWriter.manifestName)))
        let read = try ImportManifest(parsing: bytes, shown: "m.json")
        let hashes = Dictionary(result.files.map { ($0.path, SHA256.hex($0.bytes)) }, uniquingKeysWith: { first, _ in first })
        #expect(read == ImportManifest(source: "openapi/\(Self.awkward).yaml", values: values, files: hashes))
        #expect(read.bytes == bytes)
        #expect(ImportWriter.recordedValues(in: folder.path) == values)

        let again = try ImportWriter.write(result, to: folder.path, source: "openapi/\(Self.awkward).yaml", values: values)
        #expect(again.written.isEmpty && again.unchanged.count == result.files.count && again.removed.isEmpty)
    }

    /// Every field holding awkward text, written and read back.
    @Test func aManifestWithAwkwardTextReadsBack() throws {
        let manifest = ImportManifest(
            source: Self.awkward, values: [Self.awkward: .string(Self.awkward), "": .number(JSONNumber("0.5")!), "e": .number(JSONNumber("1e300")!), "n": .number(JSONNumber(-12))],
            files: ["é/漢字 😀 \".json": Self.awkward, "a.json": ""])
        let read = try ImportManifest(parsing: manifest.bytes, shown: "m.json")
        #expect(read == manifest)
        #expect(ImportManifest(source: "", values: [:], files: [:]) == (try ImportManifest(parsing: ImportManifest(source: "", values: [:], files: [:]).bytes, shown: "m.json")))
    }
}
