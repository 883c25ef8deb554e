import ContractTesting
import ContractTestingOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

struct OperationRoutedBasePathTests {
    static let fixtures: FixtureSet = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atk-\(UUID().uuidString)")
        let content: [String: Any] = [
            "format": "contract-fixture", "version": 2, "contract": "getPet", "case": "found", "source": "getPet.json",
            "endpoint": ["method": "GET", "pathTemplate": "/pets/{petId}",
                "parameters": ["path": ["petId": ["required": true, "schema": ["type": "integer"]]]]] as [String: Any],
            "request": ["method": "GET", "path": "/pets/1", "pathTemplate": "/pets/{petId}"],
            "response": ["status": 200, "headers": [["name": "Content-Type", "value": "application/json"]], "body": ["id": 1]] as [String: Any],
        ]
        let url = folder.appendingPathComponent("getPet/found.json")
        try! FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! JSONSerialization.data(withJSONObject: content).write(to: url)
        return try! FixtureSet(directory: folder)
    }()

    @Test(arguments: ["https://example.com", "https://example.com/v1"])
    func mistypedPathParameterUnderABasePath(_ base: String) async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        stub.allowInvalidRequests()
        _ = try await ContractTransport(stub: stub).send(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/pets/abc"), body: nil, baseURL: URL(string: base)!, operationID: "getPet")
        
        #expect(stub.invalidRequests.count == 1, "base \(base): /pets/abc breaks petId's integer schema")
    }
}
