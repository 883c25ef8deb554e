import ContractFixtures
import ContractModel
import ContractTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A binary body (and text in a charset other than UTF-8) is written as its bytes in base64, and
/// a stub serves exactly those bytes.
struct BinaryFixtureTests {
    @Test func aBinaryBodyIsServedAsItsBytes() async throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        let contract = """
            { "id": "logo.get", "request": { "method": "GET", "path": "/logo.png" },
              "cases": [ { "name": "ok", "response": { "status": 200, "binary": { "base64": "\(bytes.base64EncodedString())" } } } ] }
            """
        let set = ContractLoader.load(files: [SourceFile(path: "c/logo.json", relativePath: "logo.json", bytes: Array(contract.utf8))], directory: "c")
        #expect(!set.hasErrors, "\(set.diagnostics)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binary-fixtures-\(UUID().uuidString)")
        let plan = FixturePlanner(set).plan()
        #expect(plan.problems.isEmpty, "\(plan.problems)")
        _ = try FixtureStore(directory: folder.path).write(plan.fixtures)
        let stub = try ContractStub(fixtures: try FixtureSet(directory: folder))
        let (data, response) = try await stub.makeSession().data(from: URL(string: "https://cdn.example.com/logo.png")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == bytes)
    }
}
