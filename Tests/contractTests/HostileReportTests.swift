import Foundation
import Testing

/// Reports and baselines written by someone who wants `contract merge`, `contract baseline` or
/// `contract verify --baseline` to crash or eat the CI runner's memory, through the real binary:
/// every count, index, duration and size is checked before anything is made of it, and a
/// refused file is named with the field (JSON Pointer) and what was expected, exit 2.
@Suite(.serialized)
struct HostileReportTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-report-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func contract(_ arguments: [String], environment: [String: String]? = nil) async throws -> ContractBinary.Result {
        try await ContractBinary.run(arguments, in: ExampleAPITests.packageRoot, environment: environment)
    }

    /// One case as verify writes it, at `position` of the run.
    static func caseObject(position: Int) -> [String: Any] {
        [
            "id": "products.get/found\(position)", "contract": "products.get", "case": "found\(position)", "file": "contracts/products/get.json",
            "outcome": "failed", "position": position, "durationMs": 3, "attempts": 1,
            "request": ["method": "GET", "url": "http://127.0.0.1:8080/api/products/1", "headers": [["name": "Accept", "value": "application/json"]]],
            "response": [
                "status": 404, "httpVersion": "HTTP/1.1", "headers": [["name": "Content-Type", "value": "application/json"]], "bodyBytes": 2,
                "timingsMs": ["dns": 0, "connect": 0, "tls": 0, "firstByte": 1, "total": 2],
            ],
            "findings": [[
                "kind": "status", "rule": "status", "message": "expected status 200, found 404", "fingerprint": "0123456789abcdef", "excerpt": "{}",
            ]],
            "curl": "curl -i http://127.0.0.1:8080/api/products/1",
        ]
    }

    /// Shard `index` of a run of two cases split in two: shard 1 has case 0, shard 2 case 1.
    static func shard(_ index: Int) -> [String: Any] {
        [
            "format": "contract-verify-report", "version": 1, "baseURL": "http://127.0.0.1:8080", "durationMs": 5, "exitCode": 1,
            "summary": ["total": 1, "passed": 0, "failed": 1, "errors": 0], "findings": ["new": 1, "known": 0], "fixed": [] as [Any],
            "run": ["tree": String(repeating: "a", count: 64), "plan": String(repeating: "b", count: 64), "cases": 2, "failOn": "new", "shard": "\(index)/2"],
            "cases": [caseObject(position: index - 1)],
        ]
    }

    func write(_ object: [String: Any], to name: String) throws -> String {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// Sets the value at `keys` (string keys; an Int is an array index).
    static func setting(_ object: [String: Any], _ keys: [Any], to value: Any) -> [String: Any] {
        func set(_ container: Any, _ keys: ArraySlice<Any>) -> Any {
            guard let key = keys.first else { return value }
            if var dictionary = container as? [String: Any], let key = key as? String {
                dictionary[key] = set(dictionary[key] ?? [String: Any](), keys.dropFirst())
                return dictionary
            }
            if var array = container as? [Any], let index = key as? Int {
                array[index] = set(array[index], keys.dropFirst())
                return array
            }
            return container
        }
        return set(object, keys[...]) as? [String: Any] ?? object
    }

    /// `contract merge` of shard 1 and shard 2 changed by `change` (both shards when `both`).
    func merge(_ name: String, both: Bool = false, _ change: ([String: Any]) -> [String: Any]) async throws -> ContractBinary.Result {
        let first = try write(both ? change(Self.shard(1)) : Self.shard(1), to: "\(name)-1.json")
        let second = try write(change(Self.shard(2)), to: "\(name)-2.json")
        return try await contract(["merge", first, second, "--report", "json=\(path("\(name)-merged.json"))", "--color", "never"])
    }

    @Test func theShardsOfARunMerge() async throws {
        let merged = try await merge("valid") { $0 }
        #expect(merged.exitCode == 1, "\(merged.stderr)")
        #expect(FileManager.default.fileExists(atPath: path("valid-merged.json")))
    }

    /// Item 6: counts, indices and durations used as sizes. Before, `1/100000000` crashed merge
    /// (a list of every missing shard), `cases` of 1e9 aborted on an 8 GB allocation and a
    /// duration of 2^63-1 trapped converting it.
    @Test func countsIndicesAndDurationsAreBoundedBeforeAnythingIsMade() async throws {
        let cases: [(String, Bool, [Any], Any, String)] = [
            ("shards", true, ["run", "shard"], "1/100000000", "/run/shard"),
            ("verify-shards", false, ["run", "shard"], "2/30000000", "/run/shard"),
            ("cases", true, ["run", "cases"], 1_000_000_000, "/run/cases"),
            ("duration", false, ["durationMs"], Int.max, "/durationMs"),
            ("total", false, ["cases", 0, "response", "timingsMs", "total"], Int.max, "/cases/0/response/timingsMs/total"),
            ("case-duration", false, ["cases", 0, "durationMs"], Int.max, "/cases/0/durationMs"),
            ("position", false, ["cases", 0, "position"], 2, "/cases/0/position"),
            ("status", false, ["cases", 0, "response", "status"], -1, "/cases/0/response/status"),
        ]
        for (name, both, keys, value, pointer) in cases {
            let result = try await merge(name, both: both) { Self.setting($0, keys, to: value) }
            #expect(result.exitCode == 2, "\(name): \(result.exitCode) \(result.stderr)")
            #expect(result.stderr.contains("\(name)-2.json:") && result.stderr.contains("error: expected") && result.stderr.contains("[\(pointer)]"), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path("\(name)-merged.json")), "\(name)")
        }
        // Within the limits, the whole run's count is checked against the cases the reports hold
        // before a place is made for each.
        let many = try await merge("many", both: true) { Self.setting($0, ["run", "cases"], to: 1_000_000) }
        #expect(many.exitCode == 2 && many.stderr.contains("the reports hold 2 of the run's 1000000 cases"), "\(many.stderr)")
    }

    /// Item 6: verify splits a run in at most 1,000 parts, and says so before anything is loaded.
    @Test func verifyRefusesMoreShardsThanMergeReads() async throws {
        let result = try await contract(["verify", "--base-url", "http://127.0.0.1:1", "--shard", "1/30000000", "contracts"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("--shard splits a run in at most 1000 parts"), "\(result.stderr)")
        let most = try await contract(
            ["verify", "--base-url", "http://127.0.0.1:1", "--shard", "1000/1000", "--timeout", "1", "contracts"], environment: ["MARKET_TOKEN": "abcdef"])
        #expect(most.exitCode != 2, "\(most.stderr)")
    }

    /// Item 7: values beyond what verify writes: refused where verify never writes them, clipped
    /// where verify would have clipped them.
    @Test func valuesBeyondVerifysCapsAreRefusedOrClipped() async throws {
        let header: [String: Any] = ["name": "X-A", "value": "b"]
        let finding = (Self.caseObject(position: 1)["findings"] as? [Any])?.first ?? [:]
        let cases: [(String, [Any], Any, String, String)] = [
            ("message", ["cases", 0, "findings", 0, "message"], String(repeating: "m", count: (1 << 20) + 1), "/cases/0/findings/0/message", "at most 1 MiB"),
            ("headers", ["cases", 0, "response", "headers"], Array(repeating: header, count: 102_401), "/cases/0/response/headers", "at most 102,400 headers"),
            ("findings", ["cases", 0, "findings"], Array(repeating: finding, count: 1_001), "/cases/0/findings", "at most 1,000 findings"),
        ]
        for (name, keys, value, pointer, expected) in cases {
            let result = try await merge(name) { Self.setting($0, keys, to: value) }
            #expect(result.exitCode == 2, "\(name): \(result.exitCode)")
            #expect(result.stderr.contains("\(name)-2.json:") && result.stderr.contains(expected) && result.stderr.contains("[\(pointer)]"), "\(name): \(result.stderr.prefix(2_000))")
        }
        // An excerpt verify would have clipped is clipped.
        let long = try await merge("excerpt") { Self.setting($0, ["cases", 0, "findings", 0, "excerpt"], to: String(repeating: "e", count: 10_000)) }
        #expect(long.exitCode == 1, "\(long.stderr)")
        let merged = try String(contentsOfFile: path("excerpt-merged.json"), encoding: .utf8)
        #expect(merged.contains("\"" + String(repeating: "e", count: 4_000) + "…\"") && !merged.contains(String(repeating: "e", count: 4_001)))
        // A file over 1 GiB is refused before it is read (a sparse file: it costs no disk).
        let huge = path("huge.json")
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: (1 << 30) + 1)
        try handle.close()
        let refused = try await contract(["merge", try write(Self.shard(1), to: "one.json"), huge, "--report", "json=\(path("huge-merged.json"))"])
        #expect(refused.exitCode == 2 && refused.stderr.contains("huge.json: error: expected a report of at most 1 GiB"), "\(refused.stderr)")
    }

    static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A baseline of `count` entries.
    func baseline(_ count: Int, to name: String) throws -> String {
        var text = "{\n  \"format\": \"contract-verify-baseline\",\n  \"version\": 1,\n  \"findings\": [\n"
        text += (0..<count).map { #"    {"case":"gone\#($0)/x","fingerprint":"\#(Self.hex($0))","rule":"status"}"# }.joined(separator: ",\n")
        text += "\n  ]\n}\n"
        try text.write(toFile: path(name), atomically: false, encoding: .utf8)
        return path(name)
    }

    /// Item 11: a baseline holds at most 100,000 entries; verify and `contract baseline` refuse more.
    @Test func aBaselineOfMoreThanTheLimitIsRefused() async throws {
        let large = try baseline(100_001, to: "large.json")
        let verify = try await contract(["verify", "--base-url", "http://127.0.0.1:1", "--baseline", large, "contracts"])
        #expect(verify.exitCode == 2)
        #expect(verify.stderr.contains("large.json") && verify.stderr.contains("expected at most 100,000 entries") && verify.stderr.contains("[/findings]"), "\(verify.stderr)")
        let update = try await contract(["baseline", try write(Self.shard(1), to: "report.json"), "--out", large])
        #expect(update.exitCode == 2 && update.stderr.contains("expected at most 100,000 entries"), "\(update.stderr)")
    }

    /// `contract baseline` reads the report as `contract merge` does: a malformed finding is a
    /// located error, not a finding silently left out of the baseline.
    @Test func aMalformedReportIsRefusedByBaselineNotSkipped() async throws {
        var report = Self.shard(1)
        report["run"] = nil
        let broken = try write(Self.setting(report, ["cases", 0, "findings", 0, "fingerprint"], to: 12), to: "broken.json")
        let result = try await contract(["baseline", broken, "--out", path("from-broken.json")])
        #expect(result.exitCode == 2, "\(result.stdout)")
        #expect(result.stderr.contains("broken.json:1:") && result.stderr.contains("expected a fingerprint of 16 lowercase hex digits, found 12")
            && result.stderr.contains("[/cases/0/findings/0/fingerprint]"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("from-broken.json")))
        let notAFinding = try write(Self.setting(report, ["cases", 0, "findings", 0], to: "status"), to: "not-a-finding.json")
        let second = try await contract(["baseline", notAFinding, "--out", path("from-broken.json")])
        #expect(second.exitCode == 2 && second.stderr.contains("expected a finding object, found 'status' [/cases/0/findings/0]"), "\(second.stderr)")
        // The report as verify writes it makes a baseline.
        let good = try await contract(["baseline", try write(report, to: "good.json"), "--out", path("from-good.json")])
        #expect(good.exitCode == 0, "\(good.stderr)")
    }
}
