import ContractJSON
@testable import ContractModel
import Foundation
import TestSupport
import Testing

/// A tree read from disk is parsed without places (where each value starts, where lines end):
/// they are made from the file read again, and only when a diagnostic asks for one.
struct DeferredPlacesTests {
    static let brokenTree = golden.directory.appendingPathComponent("broken").path
    static let exampleTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../contracts").standardized.path

    /// The tree at `directory`, loaded as `contract lint` loads it but shown as `shown/…`, with
    /// every read of a file after the first counted.
    static func load(_ directory: String, shown: String, rereads: Counter? = nil, rereading: Bool = true, keepsCaseTrees: Bool = true) throws -> ContractSet {
        let files = try ContractSourceReader.read(directory: directory).map {
            SourceFile(path: shown + "/" + $0.relativePath, relativePath: $0.relativePath, bytes: $0.bytes)
        }
        let reader = ContractSourceReader.rereader(directory: directory)
        let counted: @Sendable (String, Int) -> [UInt8]? = { path, size in
            _ = rereads?.next()
            return reader(path, size)
        }
        return ContractLoader.load(files: files, directory: shown, rereading: rereading ? counted : nil, keepsCaseTrees: keepsCaseTrees)
    }

    /// Every lint rule's diagnostic (the broken goldens: repeated keys, repeated ids, syntax
    /// errors, schema problems) is placed at the same line and column as when places are kept.
    @Test func everyDiagnosticIsPlacedAsWhenPlacesAreKept() throws {
        let kept = try Self.load(Self.brokenTree, shown: "broken", rereading: false).diagnostics.map(\.rendered)
        #expect(kept.count > 30)
        #expect(kept.allSatisfy { $0.hasPrefix("broken") })
        let rereads = Counter()
        let deferred = try Self.load(Self.brokenTree, shown: "broken", rereads: rereads).diagnostics.map(\.rendered)
        #expect(deferred == kept)
        // Files with diagnostics are read again, each at most twice (its places; a syntax
        // error's place, or repeated keys, which are parsed again whole).
        let files = try ContractSourceReader.read(directory: Self.brokenTree).count
        #expect(rereads.count > 0)
        #expect(rereads.count <= 2 * files)
    }

    /// Cases decoded as the parse finishes each, the document keeping only their schemas: every
    /// diagnostic the same, placed the same, and every contract decoded the same.
    @Test func casesDecodedAsTheyAreParsedAreDecodedAndPlacedTheSame() throws {
        for tree in [Self.brokenTree, Self.exampleTree] {
            let whole = try Self.load(tree, shown: "t", rereading: false)
            let streamed = try Self.load(tree, shown: "t", keepsCaseTrees: false)
            #expect(streamed.diagnostics.map(\.rendered) == whole.diagnostics.map(\.rendered))
            #expect(streamed.contracts == whole.contracts)
            #expect(!whole.contracts.isEmpty)
            // What later stages look up by pointer is still there: each case's schemas.
            for contract in streamed.contracts {
                let document = try #require(streamed.documents[streamed.relativePaths[contract.file] ?? contract.file])
                for testCase in contract.cases {
                    if case .json(let schema, _) = testCase.response.body.base {
                        #expect(document.value[pointer: schema.pointer] == schema.schema)
                    }
                    // The rest is let go (the broken tree has files read whole: repeated keys).
                    if tree == Self.exampleTree { #expect(document.value[pointer: testCase.pointer.appending("name")] == nil) }
                }
            }
        }
    }

    /// Where `cases` comes before the endpoint's `request`, or `cases` is repeated, the cases are
    /// decoded from the whole tree, as ever.
    @Test func casesBeforeTheEndpointOrRepeatedAreDecodedWhole() throws {
        let request = #""request": {"method": "GET", "path": "/a/{id}"}"#
        let cases = #""cases": [{"name": "one", "request": {"pathParams": {"id": 1}}, "response": {"status": 200, "schema": {"type": "object"}}}, {"name": "one", "response": {"status": 200}}]"#
        for text in ["{\"id\": \"a\", \(cases), \(request)}", "{\"id\": \"a\", \(request), \(cases), \(cases)}", "{\"id\": \"a\", \(request), \(cases)}"] {
            let files = { [SourceFile(path: "t/a.json", relativePath: "a.json", bytes: Array(text.utf8))] }
            let whole = ContractLoader.load(files: files(), directory: "t")
            let streamed = ContractLoader.load(files: files(), directory: "t", rereading: { _, _ in Array(text.utf8) }, keepsCaseTrees: false)
            #expect(streamed.diagnostics.map(\.rendered) == whole.diagnostics.map(\.rendered))
            #expect(streamed.contracts == whole.contracts)
            #expect(whole.diagnostics.contains { $0.message.contains("duplicate case name 'one'") })
            #expect(whole.diagnostics.allSatisfy { $0.location?.line == 1 })
        }
    }

    /// A clean tree is read once: nothing asks where a value is.
    @Test func aCleanTreeIsNotReadAgain() throws {
        let rereads = Counter()
        let set = try Self.load(Self.exampleTree, shown: "contracts", rereads: rereads)
        #expect(set.diagnostics.isEmpty)
        #expect(set.contracts.count > 3)
        #expect(rereads.count == 0)
        // Asked for a place, the file is read once, and its places kept for the next.
        let document = try #require(set.documents["health.json"])
        let kept = try Self.load(Self.exampleTree, shown: "contracts", rereading: false).documents["health.json"]
        let pointer = try JSONPointer(parsing: "/cases/0/response")
        #expect(document.location(of: pointer) != nil)
        #expect(document.location(of: pointer) == kept?.location(of: pointer))
        #expect(document.keyLocation(of: pointer) == kept?.keyLocation(of: pointer))
        #expect(document.location(of: .root) == kept?.location(of: .root))
        #expect(rereads.count == 1)
    }

    /// A file changed after it was read gives no places: no line rather than a wrong one.
    @Test func aFileChangedAfterItWasReadIsNotPlaced() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deferred-places-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = #"{"id": "a", "request": {"method": "GET", "path": "/a"}, "cases": [{"name": "one", "response": {"status": 200}}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/a.json"))
        let set = try Self.load(directory, shown: "t")
        #expect(set.diagnostics.isEmpty)
        // The same length, another text: the digest tells them apart.
        try Data(text.replacingOccurrences(of: "one", with: "two").utf8).write(to: URL(fileURLWithPath: directory + "/a.json"))
        let document = try #require(set.documents["a.json"])
        #expect(document.location(of: try JSONPointer(parsing: "/cases/0")) == nil)
        #expect(document.nearestLocation(of: try JSONPointer(parsing: "/cases/0")) == nil)
        #expect(document.nearestOffset(of: try JSONPointer(parsing: "/cases/0")) == 0)
    }

    /// A file put back as a pipe or a link, or grown, is not read: a pipe with no writer would
    /// block, and nothing larger than the file was is read.
    @Test func aFileReadAgainIsARegularFileOfItsSizeOrNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deferred-places-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = Array(#"{"id": "a", "request": {"method": "GET", "path": "/a"}, "cases": [{"name": "one", "response": {"status": 200}}]}"#.utf8)
        try Data(text).write(to: URL(fileURLWithPath: directory + "/a.json"))
        let reader = ContractSourceReader.rereader(directory: directory)
        #expect(reader("a.json", text.count) == text)
        #expect(reader("a.json", text.count - 1) == nil)
        try Data(text).write(to: URL(fileURLWithPath: directory + "/b.json"))
        try FileManager.default.removeItem(atPath: directory + "/a.json")
        try FileManager.default.createSymbolicLink(atPath: directory + "/a.json", withDestinationPath: directory + "/b.json")
        #expect(reader("a.json", text.count) == nil)
        try FileManager.default.removeItem(atPath: directory + "/a.json")
        #expect(mkfifo(directory + "/a.json", 0o600) == 0)
        #expect(reader("a.json", text.count) == nil)
    }

    /// A syntax error is placed in the file read again; when that is no longer the text parsed,
    /// the message says its place is not known.
    @Test func aSyntaxErrorIsPlacedInTheFileReadAgain() throws {
        let text = "{\n  \"id\": \"a\",\n  \"cases\": [1, 2,]\n}\n"
        let files = { [SourceFile(path: "t/a.json", relativePath: "a.json", bytes: Array(text.utf8))] }
        let placed = ContractLoader.load(files: files(), directory: "t", rereading: { _, _ in Array(text.utf8) })
        let kept = ContractLoader.load(files: files(), directory: "t")
        #expect(placed.diagnostics.map(\.rendered) == kept.diagnostics.map(\.rendered))
        #expect(kept.diagnostics.first?.rendered.hasPrefix("t/a.json:3:") == true)
        let changed = ContractLoader.load(files: files(), directory: "t", rereading: { _, _ in Array(text.utf8) + [0x20] })
        let message = try #require(changed.diagnostics.first { $0.message.contains("expected") }?.rendered)
        #expect(message.hasPrefix("t/a.json:1:1:"))
        #expect(message.contains("the file changed while it was read"))
        #expect(changed.diagnostics.contains { $0.message == RereadPlaces.changedMessage && $0.location == nil })
    }

    /// A file that changes while it is read still has every problem reported (a repeated case or
    /// step name, an unknown key), without a line rather than at a wrong one, and the run says the
    /// file changed: it never passes for clean.
    @Test func aFileThatChangesWhileItIsReadIsNeverClean() throws {
        let text = #"""
            {"id": "a", "idd": 1, "request": {"method": "GET", "path": "/a"}, "cases": [
              {"name": "dup", "response": {"status": 200}},
              {"name": "dup", "response": {"status": 201}},
              {"name": "Dup", "response": {"status": 201}},
              {"name": "s", "setup": [{"name": "s", "request": {"method": "GET", "path": "/a"}}, {"name": "s", "request": {"method": "GET", "path": "/a"}}], "response": {"status": 200}}
            ]}
            """#
        let files = { [SourceFile(path: "t/a.json", relativePath: "a.json", bytes: Array(text.utf8))] }
        let whole = ContractLoader.load(files: files(), directory: "t")
        #expect(whole.diagnostics.count == 4)
        for keepsCaseTrees in [true, false] {
            let changed = ContractLoader.load(
                files: files(), directory: "t", rereading: { _, _ in Array(text.replacingOccurrences(of: "201", with: "203").utf8) },
                keepsCaseTrees: keepsCaseTrees)
            #expect(changed.diagnostics.count == whole.diagnostics.count + 1)
            for diagnostic in whole.diagnostics {
                let unplaced = diagnostic.message.replacingOccurrences(of: #" at line \d+, column \d+"#, with: "", options: .regularExpression)
                #expect(changed.diagnostics.contains { $0.message == unplaced && $0.location == nil }, "\(unplaced)")
            }
            #expect(changed.diagnostics.contains { $0.message == RereadPlaces.changedMessage })
            #expect(changed.hasErrors)
        }
    }

    /// Room for the cases is made from how far the cases read so far went, at most fourfold at a
    /// time until thousands were read: a few cases followed by megabytes of spaces get no room
    /// for millions.
    @Test func roomForCasesGrowsAtMostFourfoldAtATime() throws {
        let places = RereadPlaces(read: { nil }, text: [], parser: JSONParser())
        let stream = CaseStream(file: "a.json", places: places, size: 200_000_000)
        stream.member("request", try JSONParser().parse(#"{"method": "GET", "path": "/a"}"#).value)
        for index in 0..<70 {
            let value = try JSONParser().parse(#"{"name": "c\#(index)", "response": {"status": 200}}"#).value
            _ = stream.element(value, at: index, offset: 40 * index + 40)
        }
        let cases = try #require(stream.finished(with: try JSONParser().parse("{}")).cases)
        #expect(cases.count == 70)
        #expect(cases.capacity <= 4 * 64 + 64, "room for \(cases.capacity) cases")
    }

    /// Each example that misses its schema is reported once, at a cost linear in their number.
    @Test func manyExamplesThatMissTheirSchemaAreReportedInLinearTime() throws {
        func contract(_ count: Int) -> [SourceFile] {
            let cases = (0..<count).map { #"{"name": "c\#($0)", "response": {"status": 200, "schema": {"type": "integer"}, "example": "x\#($0)"}}"# }
            let text = #"{"id": "a", "request": {"method": "GET", "path": "/a"}, "cases": ["# + cases.joined(separator: ",") + "]}"
            return [SourceFile(path: "t/a.json", relativePath: "a.json", bytes: Array(text.utf8))]
        }
        let growth = Growth.cpuRatio(size: 500, factor: 4, rounds: 2) { count in
            let set = ContractLoader.load(files: contract(count), directory: "t")
            #expect(set.diagnostics.count == count)
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the mismatches cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }

}
