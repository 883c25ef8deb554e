import ContractTesting
import Foundation
import Testing
import TestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recording as a user turns it on: `CONTRACT_USAGE_DIR` in a test process's environment, read
/// once by the process (`UsageRecorder.testing`). A process cannot set that for itself, so these
/// run this test binary again as a child, with the variable set, on the tests below that run only
/// there (`CONTRACT_USAGE_CHILD`). Linux only: there the binary runs itself (`swift test`'s
/// runner); on Apple platforms the bundle is loaded by `xctest`.
@Suite(.enabled(if: usageChildrenCanRun))
struct UsageRecordingProcessTests {

    /// The test binary, run again.
    static let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

    /// Runs the child tests of `selection` (XCTest's `Module.Class`, or Swift Testing's arguments)
    /// with the usage folder `folder`.
    static func child(_ arguments: [String], folder: String) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["CONTRACT_USAGE_DIR"] = folder
        environment[UsageChildXCTests.gate] = "1"
        return try ChildProcess(binary, arguments, environment: environment, stdout: .capture, stderr: .capture)
    }

    static func run(_ arguments: [String], folder: String) throws -> (status: Int32, stderr: String) {
        let process = try child(arguments, folder: folder)
        let (output, errors) = process.collect()
        let status = process.wait()
        return (status, String(decoding: errors, as: UTF8.self) + (status == 0 ? "" : String(decoding: output, as: UTF8.self)))
    }

    static let xcTests = ["ContractTestingTests.UsageChildXCTests"]
    static let swiftTests = ["--testing-library", "swift-testing", "--filter", "UsageChildSwiftTests"]

    /// The usage files in `folder`, each read back.
    static func files(in folder: URL) throws -> [(name: String, contents: UsageLog.Contents)] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            return (name, try UsageLog.read(bytes).get())
        }
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("usage-process-\(UUID().uuidString)")
    }

    /// The first test of an XCTest process to record started before the stubs could follow XCTest:
    /// its records wait for its end, and are written with its name like every later test's.
    @Test func anXCTestProcessNamesEveryTestFromItsFirst() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(Self.xcTests, folder: folder.path)
        try #require(run.status == 0, "\(run.stderr)")
        let files = try Self.files(in: folder)
        try #require(files.count == 1, "one file per process: \(files.map(\.name))")
        #expect(files[0].name.hasPrefix("usage-") && files[0].name.hasSuffix(".jsonl"))
        #expect(files[0].contents.recorder == "ContractTesting")
        let records = files[0].contents.records.sorted { ($0.test ?? "") < ($1.test ?? "") }
        #expect(records.map(\.test) == [
            "ContractTestingTests.UsageChildXCTests/testAFirstTestSendsARequest", "ContractTestingTests.UsageChildXCTests/testASecondTestSendsARequest",
        ])
        #expect(records.map(\.caseID) == ["products.get/found", "health.get/ok"])
    }

    /// A Swift Testing process names its tests; a request no test can be told for (a stub made
    /// off any test's task, answering on URLSession's threads) is written without a name, at the
    /// latest when the process exits.
    @Test func aSwiftTestingProcessNamesItsTestsAndWritesTheRestAtExit() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(Self.swiftTests, folder: folder.path)
        try #require(run.status == 0, "\(run.stderr)")
        let files = try Self.files(in: folder)
        try #require(files.count == 1, "\(files.map(\.name))")
        let records = files[0].contents.records
        #expect(records.count == 2)
        #expect(records.contains {
            $0.test == "ContractTestingTests.UsageChildSwiftTests/aTestSendsARequest()" && $0.caseID == "products.get/found"
        })
        #expect(records.contains { $0.test == nil && $0.caseID == "health.get/ok" }, "\(records)")
    }

    /// Test processes running at once (`swift test --parallel`, Xcode's parallel testing) write
    /// one file each into one folder.
    @Test func twoProcessesInOneFolderNeverShareAFile() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let children = try [Self.child(Self.xcTests, folder: folder.path), Self.child(Self.xcTests, folder: folder.path)]
        for child in children {
            _ = child.collect()
            #expect(child.wait() == 0)
        }
        let files = try Self.files(in: folder)
        #expect(files.count == 2)
        #expect(Set(files.map(\.name)).count == 2)
        #expect(files.allSatisfy { $0.contents.records.count == 2 && $0.contents.truncatedLastLine == nil })
    }

    /// A folder that cannot be made is said once, on standard error; the tests still run and pass.
    @Test func aFolderThatCannotBeMadeIsSaidOnceAndTheRunPasses() throws {
        let parent = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let run = try Self.run(Self.xcTests, folder: parent.appendingPathComponent("missing/usage").path)
        #expect(run.status == 0, "\(run.stderr)")
        let said = run.stderr.components(separatedBy: "\n").filter { $0.contains("cannot record usage") }
        #expect(said == ["ContractTesting: cannot record usage in '\(parent.path)/missing/usage': cannot make the folder: No such file or directory (CONTRACT_USAGE_DIR)"])
        #expect(!FileManager.default.fileExists(atPath: parent.path))
    }
}

#if os(Linux)
private let usageChildrenCanRun = true
#else
private let usageChildrenCanRun = false
#endif

/// Whether this process is `UsageRecordingProcessTests`' child.
private let usageChild = ProcessInfo.processInfo.environment[UsageChildXCTests.gate] != nil

/// Run only as `UsageRecordingProcessTests`' child, with `CONTRACT_USAGE_DIR` set: its stubs are
/// made the way users make them, and record to the folder the environment names.
@Suite(.enabled(if: usageChild))
struct UsageChildSwiftTests {
    @Test func aTestSendsARequest() async throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        _ = try await Market.send(stub.makeSession(), "/api/products/1")
        // Off any test's task: no test is known to the stub, or to its URLSession's threads.
        let shared = try await Task.detached { try ContractStub(fixtures: Market.fixtures) }.value
        _ = try await Market.send(shared.makeSession(), "/health")
    }
}

/// Run only as `UsageRecordingProcessTests`' child (XCTest skips them otherwise).
final class UsageChildXCTests: XCTestCase {
    static let gate = "CONTRACT_USAGE_CHILD"

    override func setUpWithError() throws {
        try XCTSkipUnless(usageChild, "runs as UsageRecordingProcessTests' child")
    }

    func send(_ path: String) throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        let done = expectation(description: "answered")
        var request = URLRequest(url: try XCTUnwrap(URL(string: Market.base + path)))
        request.setValue("Bearer test", forHTTPHeaderField: "Authorization")
        stub.makeSession().dataTask(with: request) { _, _, _ in done.fulfill() }.resume()
        wait(for: [done], timeout: 600)
        XCTAssertEqual(stub.requests.count, 1)
        XCTAssertTrue(stub.invalidRequests.isEmpty && stub.unmatchedRequests.isEmpty)
    }

    func testAFirstTestSendsARequest() throws {
        try send("/api/products/1")
    }

    func testASecondTestSendsARequest() throws {
        try send("/health")
    }
}
