import ContractFixtures
import ContractModel
import ContractTesting
import Foundation
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example contracts' fixtures and a way to send them requests, shared by the suites here.
enum Market {
    /// Generated once into a temporary folder from the repository's `contracts/`.
    static let fixtures: FixtureSet = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stub-fixtures-\(UUID().uuidString)")
        let set = try! ContractLoader.load(directory: SharedData.packageRoot.appendingPathComponent("contracts").path)
        _ = try! FixtureStore(directory: folder.path).write(FixturePlanner(set).plan().fixtures)
        return try! FixtureSet(directory: folder)
    }()

    static let base = "https://market.example.com"

    static func send(_ session: URLSession, _ path: String, method: String = "GET", body: Data? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        request.setValue("Bearer test", forHTTPHeaderField: "Authorization")
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
