@_spi(Usage) import ContractTesting
import ContractTestingOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// The transport answers through its stub, so a generated client's requests are recorded for
/// `contract coverage` as URLSession's are; `send` runs on the caller's task, so each names the
/// test that sent it, whichever test made the stub.
struct ContractTransportUsageTests {
    final class Usage: @unchecked Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("transport-usage-\(UUID().uuidString)")
        let recorder: UsageRecorder

        init() throws {
            recorder = try UsageRecorder.create(folder: folder.path, recorder: "ContractTesting")
        }

        deinit {
            try? FileManager.default.removeItem(at: folder)
        }

        func records() throws -> [UsageRecord] {
            try UsageLog.read(Array(try Data(contentsOf: URL(fileURLWithPath: recorder.path)))).get().records
        }
    }

    @Test func theTransportsRequestsAreRecordedWithTheirTest() async throws {
        let usage = try Usage()
        let stub = try ContractStub(fixtures: ContractTransportTests.fixtures, usage: usage.recorder)
        let transport = ContractTransport(stub: stub)
        _ = try await transport.send(ContractTransportTests.get("/pets/1?token=usage-secret"), body: nil, baseURL: ContractTransportTests.prefixed, operationID: "getPet")
        try ContractTransportTests.choose(stub, "getPet", "not-found")
        _ = try await transport.send(ContractTransportTests.get("/pets/2"), body: nil, baseURL: ContractTransportTests.base, operationID: "getPet")
        await withKnownIssue {
            await #expect(throws: URLError.self) {
                _ = try await transport.send(ContractTransportTests.get("/owners/1"), body: nil, baseURL: ContractTransportTests.base, operationID: "getOwner")
            }
        } matching: { $0.description.contains("matches no fixture") }
        let test = "ContractTestingOpenAPITests.ContractTransportUsageTests/theTransportsRequestsAreRecordedWithTheirTest()"
        let records = try usage.records()
        try #require(records.count == 3)
        #expect(records[0] == UsageRecord(contract: "getPet", caseName: "found", outcome: .answered, test: test, method: "GET", path: "/v1/pets/1"))
        #expect(records[1] == UsageRecord(contract: "getPet", caseName: "not-found", outcome: .answered, test: test, method: "GET", path: "/pets/2"))
        #expect(records[2].outcome == .unmatched && records[2].test == test && records[2].path == "/owners/1" && records[2].reason != nil)
    }

    /// A stub shared by tests (made off any test's task) names each test that sends through it.
    @Test func aSharedStubNamesTheTestThatSends() async throws {
        let usage = try Usage()
        let stub = try await Task.detached { try ContractStub(fixtures: ContractTransportTests.fixtures, usage: usage.recorder) }.value
        _ = try await ContractTransport(stub: stub).send(ContractTransportTests.get("/pets/1"), body: nil, baseURL: ContractTransportTests.base, operationID: "getPet")
        #expect(try usage.records().map(\.test) == ["ContractTestingOpenAPITests.ContractTransportUsageTests/aSharedStubNamesTheTestThatSends()"])
    }
}
