import ContractTesting
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The memory an idle stub costs: RSS before and after making N stubs that stay alive (one
// FixtureSet shared, as a suite's static does), which includes the runtime's metadata for each
// new slot's class (made once, kept for the next stub in that slot); again once those are gone,
// to show that stubs made and released do not add up; then a session made by each of a thousand
// and kept, as a test case that keeps its client in a property does.
let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 10_000
let fixtures = try FixtureSet(directory: URL(fileURLWithPath: CommandLine.arguments.dropFirst(2).first ?? "Fixtures"))

func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

func openFiles() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
}

func report(_ what: String, _ before: Int, _ after: Int) {
    let bytes = (after - before) * 1024 / count
    print("stub-scale: \(count) \(what): RSS +\((after - before) / 1024) MB, \(bytes) bytes each")
}

// Warm up: Foundation, the slot table's first class, the fixtures' first copy.
_ = try ContractStub(fixtures: fixtures)

var before = residentKilobytes()
var stubs = try (0..<count).map { _ in try ContractStub(fixtures: fixtures) }
report("idle stubs alive at once (stub objects and their new slot classes)", before, residentKilobytes())

stubs = []
before = residentKilobytes()
stubs = try (0..<count).map { _ in try ContractStub(fixtures: fixtures) }
report("idle stubs made after the first are gone (slots, classes and freed heap reused)", before, residentKilobytes())

// Only a thousand: on Linux each live URLSession holds two file descriptors (its curl handle's
// wake-up pair), and 10,000 kept at once reach a limit of 20,000 open files.
let kept = min(count, 1000)
before = residentKilobytes()
let openBefore = openFiles()
let sessions = stubs.prefix(kept).map { $0.makeSession() }
print("stub-scale: \(kept) sessions kept, one per stub (the session's cost, not the stub's): RSS +\((residentKilobytes() - before) / 1024) MB, \((residentKilobytes() - before) * 1024 / kept) bytes and \(Double(openFiles() - openBefore) / Double(kept)) open files each")

// And the last stub answers its own session; the first stub sees nothing.
let done = DispatchSemaphore(value: 0)
let session = stubs[count - 1].makeSession()
session.dataTask(with: URL(string: "https://market.example.com/health")!) { _, _, _ in done.signal() }.resume()
_ = done.wait(timeout: .now() + 30)
guard stubs[count - 1].requests.map(\.fixture) == ["health.get/ok"], stubs[0].requests.isEmpty else {
    print("stub-scale: a request through the last stub's session did not reach it")
    exit(1)
}
withExtendedLifetime((stubs, sessions)) {}
