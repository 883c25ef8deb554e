import Foundation
import TestSupport
import Testing

/// `contract merge` on the example API through the real binary: four shards of a nightly run,
/// merged, write byte for byte the reports one unsharded run writes (timings and the server's
/// dates aside), print its console output, and exit with its code; parts of other runs are refused.
@Suite(.serialized)
struct ShardMergeCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID().uuidString)")
    let keeps = ProcessInfo.processInfo.environment["KEEP_MERGE"] != nil
    static let kinds = ["json", "junit", "markdown", "html"]

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func verify(_ server: ExampleAPITests.RunningServer, _ extra: [String]) async throws -> ContractBinary.Result {
        try await ExampleAPITests().verify(server, extra)
    }

    func contract(_ arguments: [String]) async throws -> ContractBinary.Result {
        try await ContractBinary.run(arguments + (arguments.first == "merge" ? ["--color", "never"] : []), in: ExampleAPITests.packageRoot)
    }

    func reports(_ prefix: String) -> [String] {
        Self.kinds.flatMap { ["--report", "\($0)=\(path("\(prefix).\($0)"))"] }
    }

    /// A baseline that knows all the drift but one finding, and lists one finding no case meets:
    /// the merged run has new, known and fixed findings, spread over the shards.
    func writeBaseline(from report: String) async throws {
        let written = try await contract(["baseline", report, "--out", path("baseline.json"), "--reason", "tracked in API-42"])
        #expect(written.exitCode == 0, "\(written.stderr)")
        var lines = try String(contentsOfFile: path("baseline.json"), encoding: .utf8).components(separatedBy: "\n")
        let deleteEntry = try #require(lines.firstIndex { $0.contains("\"case\":\"products.delete/") })
        lines[deleteEntry] = #"    {"fingerprint":"0123456789abcdef","case":"products.list/first-page","rule":"status"},"#
        try lines.joined(separator: "\n").write(toFile: path("baseline.json"), atomically: true, encoding: .utf8)
    }

    @Test func fourShardsMergeIntoTheReportsOfOneRun() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keeps { try? FileManager.default.removeItem(at: folder) } }
        let first = try await verify(try await ExampleAPITests.RunningServer.started(["--drift"]), ["--report", "json=\(path("first.json"))"])
        #expect(first.exitCode == 1)
        try await writeBaseline(from: path("first.json"))
        let options = ["--baseline", path("baseline.json")]

        let whole = try await verify(try await ExampleAPITests.RunningServer.started(["--drift"]), options + reports("whole"))
        #expect(whole.exitCode == 1, "one finding is new: \(whole.stdout)\(whole.stderr)")
        #expect(whole.stdout.contains("findings against the baseline: 1 new, 26 known, 1 fixed"), "\(whole.stdout)")

        let shardServer = try await ExampleAPITests.RunningServer.started(["--drift"])
        var shardCodes: [Int32] = []
        for index in 1...4 {
            let shard = try await verify(shardServer, options + ["--shard", "\(index)/4", "--report", "json=\(path("shard-\(index).json"))"])
            #expect([0, 1].contains(shard.exitCode), "\(shard.stderr)")
            shardCodes.append(shard.exitCode)
        }
        #expect(shardCodes.contains(0) && shardCodes.contains(1), "the drift lands in some shards only: \(shardCodes)")

        // In any order: the merge puts the cases back in the run's order.
        let merged = try await contract(["merge"] + (1...4).reversed().map { path("shard-\($0).json") } + reports("merged"))
        #expect(merged.exitCode == whole.exitCode, "\(merged.stderr)")
        #expect(merged.stderr.isEmpty, "\(merged.stderr)")
        for kind in Self.kinds {
            let one = try Self.normalized(String(contentsOfFile: path("whole.\(kind)"), encoding: .utf8))
            let parts = try Self.normalized(String(contentsOfFile: path("merged.\(kind)"), encoding: .utf8))
            #expect(one == parts, "the merged \(kind) report differs from the unsharded run's")
            #expect(one.contains("products.delete"))
        }
        #expect(Self.normalized(merged.stdout) == Self.normalized(whole.stdout))
        let json = try String(contentsOfFile: path("merged.json"), encoding: .utf8)
        #expect(!json.contains("\"shard\""), "the merged report is the whole run's")
        #expect(json.contains("\"fingerprint\": \"0123456789abcdef\""), "the fixed entry of one shard")
    }

    @Test func partsOfOtherRunsAreRefusedAndNothingIsWritten() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ExampleAPITests.RunningServer.started([])
        for index in 1...3 {
            let shard = try await verify(server, ["--shard", "\(index)/3", "--report", "json=\(path("s\(index).json"))"])
            #expect(shard.exitCode == 0, "\(shard.stderr)")
        }
        let whole = try await verify(server, ["--report", "json=\(path("whole.json"))"])
        #expect(whole.exitCode == 0)
        let tagged = try await verify(server, ["--shard", "2/3", "--id", "products.*", "--report", "json=\(path("tagged.json"))"])
        #expect(tagged.exitCode == 0)
        // The same shard, as if a contract had changed between the matrix's jobs.
        let s2 = try String(contentsOfFile: path("s2.json"), encoding: .utf8)
        let tree = try #require(s2.range(of: #""tree": ""#))
        try s2.replacingCharacters(in: tree.upperBound..<s2.index(tree.upperBound, offsetBy: 4), with: "0000")
            .write(toFile: path("edited.json"), atomically: true, encoding: .utf8)

        let refusals: [([String], String)] = [
            (["s1.json", "s3.json"], "error: shard 2/3 is missing: the run was split in 3, and only 2 reports were given"),
            (["s1.json", "s2.json", "s2.json", "s3.json"], "is shard 2/3 again"),
            (["s1.json", "edited.json", "s3.json"], "edited.json: error: is from another contracts tree than"),
            (["s1.json", "tagged.json", "s3.json"], "tagged.json: error: selects other cases than"),
            (["whole.json", "s1.json"], "whole.json: error: is a whole run, not a shard"),
            (["s1.json", "s2.json", "s3.json", "missing.json"], "missing.json: error: no such file"),
        ]
        for (files, message) in refusals {
            let result = try await contract(["merge"] + files.map(path) + ["--report", "markdown=\(path("out.md"))"])
            #expect(result.exitCode == 2, "\(files)")
            #expect(result.stderr.contains(message), "\(files): \(result.stderr)")
            #expect(result.stderr.contains("nothing was written"))
            #expect(!FileManager.default.fileExists(atPath: path("out.md")), "\(files)")
        }
        // The whole run on its own is a run already; merging it writes its reports again.
        let alone = try await contract(["merge", path("whole.json"), "--report", "json=\(path("again.json"))"])
        #expect(alone.exitCode == 0, "\(alone.stderr)")
        #expect(try Self.normalized(String(contentsOfFile: path("again.json"), encoding: .utf8))
            == Self.normalized(String(contentsOfFile: path("whole.json"), encoding: .utf8)))
    }

    /// Timings, the server's `Date`, its port (each run has a fresh server), the ids it gives the
    /// products cases create (in the order the server sees them, which no two runs share) and
    /// what their lengths change set aside: everything else must be the same byte for byte.
    static func normalized(_ text: String) -> String {
        let patterns = [
            (#""(durationMs|dns|connect|tls|firstByte|total)": [0-9]+"#, #""$1": 0"#),
            (#"time="[0-9.]+""#, #"time="0""#),
            (#"[0-9]+ ms\b"#, "0 ms"),
            // A run of a second or more is written in seconds (`1.38 s`): a busy machine's.
            (#"\b[0-9]+\.[0-9]+ s\b"#, "0 ms"),
            (#"127\.0\.0\.1:[0-9]+"#, "127.0.0.1:PORT"),
            (#"/api/products/[0-9]{1,3}\b"#, "/api/products/ID"),
            // `"id":6`, `\"deleted\":6`, `&quot;id&quot;:6`: in a body, as JSON, XML and Markdown quote it.
            (#"((?:id|deleted)(?:\\"|&quot;|"):)[0-9]+"#, "$1ID"),
            (#"[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT"#, "DATE"),
            // A flow's `${unique:…}` names, and the times its products were made: each run's own.
            (#"([Ll])amp-[a-z][a-z0-9]{11}"#, "$1amp-UNIQUE"),
            // An excerpt cut inside `"id"`: `…d\":8`.
            (#"…d(\\"|&quot;|"):[0-9]+"#, "…d$1:ID"),
            (#"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z"#, "TIME"),
            // What the length of such an id changes, one digit or two as the order the server saw
            // the creates gives them: the lengths of the bodies, and where the excerpt of a body of
            // a product a case made begins and ends (a line of the console, Markdown and JUnit, a
            // JSON string, an HTML block).
            (#"("bodyBytes": )[0-9]+"#, "$1N"),
            (#"("Content-Length",\s*"value": ")[0-9]+"#, "$1N"),
            (#"Content-Length: [0-9]+"#, "Content-Length: N"),
            (#"body [0-9]+ bytes"#, "body N bytes"),
            (#"(?m)^( *body: )[^\n]*([Ll]amp-UNIQUE|Eraser)[^\n]*"#, "$1CREATED"),
            (#"("excerpt": ")[^\n]*([Ll]amp-UNIQUE|Eraser)[^\n]*""#, "$1CREATED\""),
            (#"(<pre>)[^<\n]*([Ll]amp-UNIQUE|Eraser)[^<\n]*(</pre>)"#, "$1CREATED$3"),
        ]
        var text = text
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}
