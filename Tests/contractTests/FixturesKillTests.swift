import Foundation
import TestSupport
import Testing

/// `contract fixtures` killed (SIGKILL) while it replaces a set of 3,000 fixtures: the folder holds
/// the old set or the new one every time, never a mix, and nothing stays behind after the next run.
/// `CONTRACT_KILL_POINTS` sets how many kills (6 by default; the figure in docs/SECURITY.md came
/// from 60).
struct FixturesKillTests {
    static let contracts = 3_000
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("kill-\(UUID().uuidString)")

    /// Two contract trees whose fixtures all differ: every file of the set changes between them.
    func makeTrees() throws {
        for generation in ["A", "B"] {
            let folder = work.appendingPathComponent("contracts-\(generation)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for index in 0..<Self.contracts {
                let id = String(format: "c%04d.get", index)
                try """
                    { "id": "\(id)", "request": { "method": "GET", "path": "/r/\(index)" },
                      "cases": [ { "name": "ok", "response": { "status": 200, "example": { "n": \(index), "generation": "\(generation)" }, "schema": { "type": "object" } } } ] }
                    """.write(to: folder.appendingPathComponent("\(id).json"), atomically: false, encoding: .utf8)
            }
        }
    }

    /// Every file under the output folder and its bytes: the set as a value.
    func snapshot() -> [String: Data] {
        let out = work.appendingPathComponent("out")
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: out.path)
        while let relative = enumerator?.nextObject() as? String {
            let url = out.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try? Data(contentsOf: url)
            }
        }
        return files
    }

    func run(_ generation: String) throws -> ContractBinary.Result {
        try ContractBinary.runBlocking(["fixtures", "--out", "out", "contracts-\(generation)"], in: work)
    }

    /// Siblings of the output folder other than the trees: what a killed run left beside it.
    func besideTheFolder() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: work.path).filter { !["out", "contracts-A", "contracts-B"].contains($0) }
    }

    func inode(of relative: String) -> UInt64 {
        var info = stat()
        lstat(work.appendingPathComponent(relative).path, &info)
        return UInt64(info.st_ino)
    }

    /// Runs to the end, timing the run and the part from the staging folder's appearance on.
    func timedRun(_ generation: String) throws -> (run: Double, write: Double) {
        let started = Date()
        let process = try ChildProcess(ContractBinary.url.path, ["fixtures", "--out", "out", "contracts-\(generation)"], in: work.path, stderr: .capture)
        let swap = work.appendingPathComponent(".out.contract-swap-\(process.pid)").path
        while process.isRunning && !FileManager.default.fileExists(atPath: swap) { usleep(200) }
        let staging = Date()
        let (_, errors) = process.collect()
        guard process.wait() == 0 else { throw ChildProcess.SpawnError(description: String(decoding: errors, as: UTF8.self)) }
        return (Date().timeIntervalSince(started), Date().timeIntervalSince(staging))
    }

    /// Starts a run towards `target` and kills it in `phase` (0: while the new set is built beside
    /// the folder, where a mix could happen; 1: just after the swap, while the old set is being
    /// removed; 2: at any moment at all). Returns the folder as the kill left it, and what lies beside it.
    func killedRun(towards target: String, phase: Int, first: Bool, runTime: Double, writeTime: Double) throws -> (state: [String: Data], leftBehind: [String]) {
        var generator = SystemRandomNumberGenerator()
        let process = try ChildProcess(ContractBinary.url.path, ["fixtures", "--out", "out", "contracts-\(target)"], in: work.path)
        let swap = work.appendingPathComponent(".out.contract-swap-\(process.pid)").path
        switch phase {
        case 0:
            while process.isRunning && !FileManager.default.fileExists(atPath: swap) { usleep(200) }
            // The first such kill comes as soon as the new set starts beside the folder, so one kill
            // surely lands before the swap however fast this run goes beside the timed one.
            if !first { usleep(UInt32(Double.random(in: 0..<writeTime, using: &generator) * 1_000_000)) }
        case 1:
            let before = inode(of: "out")
            while process.isRunning && inode(of: "out") == before { usleep(200) }
            usleep(UInt32.random(in: 0..<200_000, using: &generator))
        default:
            usleep(UInt32(Double.random(in: 0..<runTime, using: &generator) * 1_000_000))
        }
        process.signal(SIGKILL)
        process.wait()
        return (snapshot(), try besideTheFolder())
    }

    /// Every wait happens on a thread of its own (`onOwnThread`): this test waits for half a minute.
    @Test func aKilledRunLeavesTheOldSetOrTheNewOne() async throws {
        let test = self
        try await onOwnThread { try test.makeTrees() }
        #expect(try await onOwnThread { try test.run("B").exitCode } == 0)
        let setB = try await onOwnThread { test.snapshot() }
        // A first run to time: the whole run, and the part after the new set starts beside the folder.
        let (runTime, writeTime) = try await onOwnThread { try test.timedRun("A") }
        let setA = try await onOwnThread { test.snapshot() }
        try #require(setA.count == Self.contracts + 1 && setB.count == Self.contracts + 1 && setA != setB)
        #expect(Set(setA.keys) == Set(setB.keys) && setA.keys.allSatisfy { setA[$0] != setB[$0] }, "every file differs")

        let kills = Int(ProcessInfo.processInfo.environment["CONTRACT_KILL_POINTS"] ?? "") ?? 6
        var outcomes: [String: Int] = [:]
        var current = "A"
        for attempt in 0..<kills {
            let target = current == "A" ? "B" : "A"
            let (state, leftBehind) = try await onOwnThread {
                try test.killedRun(towards: target, phase: attempt % 3, first: attempt == 0, runTime: runTime, writeTime: writeTime)
            }
            switch state {
            case setA: current = "A"
            case setB: current = "B"
            default:
                let mixed = state.keys.filter { setA[$0] != state[$0] && setB[$0] != state[$0] }.sorted()
                Issue.record("kill \(attempt): the folder is neither set: \(state.count) files, \(mixed.prefix(5)) differ from both")
                return
            }
            outcomes["\(current == target ? "new" : "old") set\(leftBehind.isEmpty ? "" : ", leftovers beside")", default: 0] += 1
        }
        print("kills: \(kills) (run \(runTime) s, writing \(writeTime) s), outcomes: \(outcomes.sorted { $0.key < $1.key })")
        // The kills reached both sides of the swap, so both outcomes were put to the test.
        #expect(outcomes.keys.contains { $0.hasPrefix("old set, leftovers") } && outcomes.keys.contains { $0.hasPrefix("new set") })
        // The next complete run removes whatever the kills left.
        let final = current == "A" ? "B" : "A"
        let result = try await onOwnThread { try test.run(final) }
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try await onOwnThread { test.snapshot() } == (final == "A" ? setA : setB))
        #expect(try await onOwnThread { try test.besideTheFolder() }.isEmpty)
        let check = try await onOwnThread { try ContractBinary.runBlocking(["fixtures", "--check", "--out", "out", "contracts-\(final)"], in: test.work) }
        #expect(check.exitCode == 0, "\(check.stdout)")
    }
}
