@_spi(Testing) import ContractRequests
import Foundation
import Testing

/// The one writer of usage files on real files: lines whole whatever the threads, a file of its
/// own per recorder, and nothing planted in the folder ever opened.
struct UsageRecorderTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("usage-recorder-\(UUID().uuidString)")
        var path: String { url.path }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }

        func read(_ recorder: UsageRecorder) throws -> UsageLog.Contents {
            try UsageLog.read(Array(Data(contentsOf: URL(fileURLWithPath: recorder.path)))).get()
        }
    }

    static func record(_ number: Int, thread: Int) -> UsageRecord {
        // Long texts and violations, so a line spans more than one small write if it could.
        UsageRecord(
            contract: "products.create", caseName: "created", outcome: .invalid, relaxed: number % 2 == 0, test: "T\(thread)/test\(number)()",
            method: "POST", path: "/api/products/\(number)/" + String(repeating: "x", count: 1_500),
            violations: (0..<5).map { UsageRecord.Violation(place: "body /v\($0)", keyword: "type", message: String(repeating: "m", count: 400)) })
    }

    /// Threads recording at once write every line whole: the reader reads every record back.
    @Test func manyThreadsAtOnceWriteEveryLineWhole() throws {
        let folder = Folder()
        let recorder = try UsageRecorder.create(folder: folder.path, recorder: "ContractTesting")
        let threads = 8
        let each = 400
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for number in 0..<each { recorder.record(Self.record(number, thread: thread)) }
        }
        let contents = try folder.read(recorder)
        #expect(contents.truncatedLastLine == nil)
        #expect(contents.records.count == threads * each)
        let expected = (0..<threads).flatMap { thread in (0..<each).map { Self.record($0, thread: thread) } }
        #expect(Set(contents.records) == Set(expected))
    }

    @Test func twoRecordersInOneFolderNeverShareAFile() throws {
        let folder = Folder()
        let first = try UsageRecorder.create(folder: folder.path, recorder: "ContractTesting")
        let second = try UsageRecorder.create(folder: folder.path, recorder: "ContractMockServer")
        #expect(first.path != second.path)
        first.record(Self.record(1, thread: 1))
        second.record(Self.record(2, thread: 2))
        #expect(try folder.read(first).records == [Self.record(1, thread: 1)])
        #expect(try folder.read(second).records == [Self.record(2, thread: 2)])
        #expect(try folder.read(second).recorder == "ContractMockServer")
        #expect(URL(fileURLWithPath: first.path).lastPathComponent.hasPrefix("usage-\(getpid())-"))
    }

    /// A file or a link planted at a name the recorder tries is passed over, never opened: the
    /// file keeps its bytes, and the link's target is never written (nor made).
    @Test func aFileOrALinkPlantedAtAWouldBeNameIsNeverOpened() throws {
        let folder = Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let planted = folder.url.appendingPathComponent("usage-\(getpid())-a.jsonl")
        try Data("planted\n".utf8).write(to: planted)
        let target = folder.url.appendingPathComponent("target")
        let link = folder.url.appendingPathComponent("usage-\(getpid())-b.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let danglingTarget = folder.url.appendingPathComponent("made-through-a-link")
        let dangling = folder.url.appendingPathComponent("usage-\(getpid())-c.jsonl")
        try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: danglingTarget)
        try Data("target\n".utf8).write(to: target)

        let recorder = try UsageRecorder.create(folder: folder.path, recorder: "ContractTesting", suffixes: ["a", "b", "c", "d"])
        recorder.record(Self.record(1, thread: 1))
        #expect(recorder.path == folder.url.appendingPathComponent("usage-\(getpid())-d.jsonl").path)
        #expect(try Data(contentsOf: planted) == Data("planted\n".utf8))
        #expect(try Data(contentsOf: target) == Data("target\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: danglingTarget.path))
        #expect(try folder.read(recorder).records.count == 1)

        #expect(throws: UsageRecorder.CannotRecord.self) {
            try UsageRecorder.create(folder: folder.path, recorder: "ContractTesting", suffixes: ["a", "b", "c"])
        }
    }

    /// A missing folder is made, one level; one whose parent is missing, or a file in its place,
    /// is refused with what the system said, and nothing is made.
    @Test func aFolderThatCannotBeMadeIsRefusedWithWhy() throws {
        let folder = Folder()
        let made = try UsageRecorder.create(folder: folder.path, recorder: "contract serve")
        #expect(try folder.read(made).recorder == "contract serve")

        let deep = folder.url.appendingPathComponent("missing/usage").path
        do {
            _ = try UsageRecorder.create(folder: deep, recorder: "contract serve")
            Issue.record("a folder under a missing one was made")
        } catch {
            #expect(error.description == "cannot record usage in '\(deep)': cannot make the folder: No such file or directory")
        }
        #expect(UsageRecorder.start(folder: deep, recorder: "ContractTesting") == nil)

        let file = folder.url.appendingPathComponent("a-file")
        try Data().write(to: file)
        #expect(throws: UsageRecorder.CannotRecord.self) { try UsageRecorder.create(folder: file.path, recorder: "ContractTesting") }
    }
}
