import Foundation
import Testing

@testable import ContractVerifier

/// A report file that cannot be written says what and where, and keeps the system's error.
struct ReportFileTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-file-\(UUID().uuidString)")
    let pid = ProcessInfo.processInfo.processIdentifier

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func aMissingFolderIsNamedWithTheSystemsReason() {
        let file = ReportFile(path: folder.appendingPathComponent("missing/r.json").path)
        file.append("{}")
        let error = #expect(throws: ReportFileError.self) { try file.commit(header: "", trailer: "\n") }
        #expect(error?.message == "cannot create '\(folder.path)/missing/.r.json.\(pid).partial': No such file or directory")
        #expect((error?.underlying as? POSIXError)?.code == .ENOENT)
    }

    @Test func aDestinationThatCannotBeReplacedKeepsTheCause() throws {
        // A folder, not empty, where the report should go: rename(2) cannot put a file there.
        let destination = folder.appendingPathComponent("r.json")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: destination.appendingPathComponent("inside"))
        let file = ReportFile(path: destination.path)
        file.append("{}")
        let error = #expect(throws: ReportFileError.self) { try file.commit(header: "", trailer: "\n") }
        #expect(error?.message == "cannot rename '\(folder.path)/.r.json.\(pid).partial' to '\(destination.path)': Is a directory")
        #expect((error?.underlying as? POSIXError)?.code == .EISDIR)
    }

    @Test func aHeaderIsWrittenInFrontOfTheBody() throws {
        let path = folder.appendingPathComponent("r.txt")
        let file = ReportFile(path: path.path)
        file.append("body\n")
        try file.commit(header: "head\n", trailer: "tail\n")
        #expect(try String(contentsOf: path, encoding: .utf8) == "head\nbody\ntail\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["r.txt"], "no partial file left")
    }
}
