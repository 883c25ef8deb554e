import Foundation
import TestSupport
import Testing

/// Every file a command writes goes through the one writer that never follows a link: a pull
/// request can commit a link where a report, a baseline or an ignore file is written, or at its
/// temporary name, and the file it points to must stay as it was.
struct OutputLinkTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-links-\(UUID().uuidString)")

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Two contract trees that differ, a victim file outside them, and links to it at the names
    /// the older writers used for their temporary files.
    func prepare(links names: [String]) throws {
        for side in ["old", "new"] {
            try FileManager.default.createDirectory(atPath: path(side), withIntermediateDirectories: true)
            let status = side == "old" ? 204 : 200
            try #"{"id": "a", "request": {"method": "DELETE", "path": "/a"}, "cases": [{"name": "b", "response": {"status": \#(status)}}]}"#
                .write(toFile: path("\(side)/a.json"), atomically: false, encoding: .utf8)
        }
        try "precious\n".write(toFile: path("victim"), atomically: false, encoding: .utf8)
        for name in names { try FileManager.default.createSymbolicLink(atPath: path(name), withDestinationPath: path("victim")) }
    }

    func expectVictimUntouched(_ outputs: [String]) throws {
        #expect(try String(contentsOfFile: path("victim"), encoding: .utf8) == "precious\n", "the linked file is untouched")
        for output in outputs {
            let type = try FileManager.default.attributesOfItem(atPath: path(output))[.type] as? FileAttributeType
            #expect(type == .typeRegular, "\(output) is a file of its own")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") && $0.contains("partial") }
        #expect(left.isEmpty, "no hidden file left: \(left)")
    }

    @Test func diffReportsAreNotWrittenThroughLinks() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try prepare(links: ["report.md.partial", "report.json.partial", "report.json"])
        let result = try await ContractBinary.run(
            ["diff", "old", "new", "--report", "markdown=report.md", "--report", "json=report.json"], in: folder)
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        try expectVictimUntouched(["report.md", "report.json"])
        #expect(try String(contentsOfFile: path("report.json"), encoding: .utf8).contains("contract-diff-report"))
    }

    @Test func anAcceptedIgnoreFileIsNotWrittenThroughALink() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try prepare(links: ["ignore.json.partial"])
        let result = try await ContractBinary.run(["diff", "old", "new", "--ignore", "ignore.json", "--accept", "v2 answers 200"], in: folder)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try expectVictimUntouched(["ignore.json"])
        #expect(try String(contentsOfFile: path("ignore.json"), encoding: .utf8).contains("v2 answers 200"))
    }

    @Test func aBaselineIsNotWrittenThroughALink() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try prepare(links: ["baseline.json.partial"])
        let report = try String(contentsOf: ExampleAPITests.packageRoot.appendingPathComponent("Tests/ContractVerifierTests/Golden/report.json"), encoding: .utf8)
        try report.write(toFile: path("report.json"), atomically: false, encoding: .utf8)
        let result = try await ContractBinary.run(["baseline", "report.json", "--out", "baseline.json"], in: folder)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try expectVictimUntouched(["baseline.json"])
    }
}
