import ContractRequests
import ContractVerifier
import Foundation
import TestSupport
import Testing

/// A small API in a temporary folder, the way a team has it: contracts, a real server on
/// loopback verified by a real `contract verify` run (its JSON report), and usage files written
/// by the recorder the stubs use.
struct CoverageFixture {
    let folder: URL

    static let contracts: [String: String] = [
        "pets/get.json": """
            {"id": "pets.get", "request": {"method": "GET", "path": "/pets/{id}"},
             "cases": [
               {"name": "found", "request": {"pathParams": {"id": 1}},
                "response": {"status": 200, "schema": {"type": "object", "required": ["id", "name"],
                  "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}},
               {"name": "missing", "request": {"pathParams": {"id": 9}}, "response": {"status": 404}}]}
            """,
        "pets/list.json": """
            {"id": "pets.list", "request": {"method": "GET", "path": "/pets"},
             "cases": [{"name": "ok", "response": {"status": 200, "schema": {"type": "array"}}}]}
            """,
        "pets/create.json": """
            {"id": "pets.create", "request": {"method": "POST", "path": "/pets", "contentType": "application/json",
               "schema": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}, "additionalProperties": false}},
             "cases": [
               {"name": "created", "request": {"body": {"name": "Rex"}}, "response": {"status": 201}},
               {"name": "invalid", "request": {"body": {}}, "response": {"status": 400}}]}
            """,
        "health.json": """
            {"id": "health.get", "request": {"method": "GET", "path": "/health"}, "cases": [{"name": "ok", "response": {"status": 200}}]}
            """,
    ]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        for (path, text) in Self.contracts {
            let url = folder.appendingPathComponent("contracts").appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A server that keeps every contract, or, drifting, answers a pet without its name and a
    /// create with 200.
    static func server(drifting: Bool) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer(routeWithBody: { method, target, body in
            switch (method, target) {
            case ("GET", "/pets/1"): .json(status: 200, drifting ? #"{"id": 1}"# : #"{"id": 1, "name": "Rex"}"#)
            case ("GET", "/pets"): .json(status: 200, "[]")
            case ("POST", "/pets") where !String(decoding: body, as: UTF8.self).contains("name"): .json(status: 400, #"{"error": "name"}"#)
            case ("POST", "/pets"): .json(status: drifting ? 200 : 201, #"{"id": 2}"#)
            case ("GET", "/health"): .json(status: 200, #"{"status": "ok"}"#)
            default: .json(status: 404, #"{"error": "none"}"#)
            }
        })
    }

    /// Runs `contract verify` against the server and writes its JSON report to `name`.
    func verify(drifting: Bool, report name: String) async throws {
        let server = try Self.server(drifting: drifting)
        defer { server.stop() }
        var arguments = VerifyArguments(baseURL: server.baseURL)
        arguments.directory = folder.appendingPathComponent("contracts").path
        arguments.reports = ["json=\(folder.appendingPathComponent(name).path)"]
        arguments.concurrency = 1
        _ = await VerifyRun.run(arguments, environment: [:])
    }

    /// What an app's suite sent through its stubs: two processes (an XCTest and a Swift Testing
    /// run), each with its own file.
    func writeUsage(in name: String) throws {
        let path = folder.appendingPathComponent(name).path
        let first = try #require(UsageRecorder.start(folder: path, recorder: "ContractTesting"))
        first.record(UsageRecord(contract: "pets.get", caseName: "found", outcome: .answered, test: "PetClientTests/testFetch", method: "GET", path: "/pets/1"))
        first.record(UsageRecord(contract: "pets.get", caseName: "found", outcome: .answered, test: "PetClientTests/testFetchTwice", method: "GET", path: "/pets/1"))
        first.record(UsageRecord(contract: "pets.get", caseName: "missing", outcome: .answered, test: "PetClientTests/testMissing", method: "GET", path: "/pets/9"))
        first.record(UsageRecord(
            contract: "pets.create", caseName: "created", outcome: .invalid, test: "PetClientTests/testCreateTypo", method: "POST", path: "/pets",
            violations: [.init(place: "body /nme", keyword: "additionalProperties", message: "unexpected property 'nme', did you mean 'name'?")]))
        let second = try #require(UsageRecorder.start(folder: path, recorder: "ContractTesting"))
        second.record(UsageRecord(contract: "pets.create", caseName: "created", outcome: .answered, test: "PetFlowTests/createsAPet()", method: "POST", path: "/pets"))
        second.record(UsageRecord(
            contract: "pets.create", caseName: "invalid", outcome: .invalid, relaxed: true, test: "PetFlowTests/showsTheRefusal()", method: "POST", path: "/pets",
            violations: [.init(place: "body", keyword: "required", message: "missing required property 'name'")]))
        second.record(UsageRecord(
            contract: "pets.get", caseName: nil, outcome: .unmatched, test: "PetFlowTests/opensAPet()", method: "GET", path: "/pet/1",
            nearest: "pets.get/found", reason: "the path differs at 'pet'"))
    }
}
