import Foundation
import Testing

@testable import ContractFiles

/// The one writer of files a person names: whole or absent, never through a link, and a file that
/// cannot be written says what and where with the system's error.
struct OutputFileTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString)")
    let pid = ProcessInfo.processInfo.processIdentifier

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func contents(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    /// A message with the hidden file's process id and number (`.r.json.4242-3.partial`) as `PID`.
    func shape(_ message: String?) -> String? {
        message?.replacing(try! Regex("\\.\(pid)(-[0-9]+)?\\.partial"), with: ".PID.partial")
    }

    @Test func aMissingFolderIsNamedWithTheSystemsReason() {
        let file = OutputFile(path: path("missing/r.json"))
        file.append("{}")
        let error = #expect(throws: FolderError.self) { try file.commit(trailer: "\n") }
        #expect(shape(error?.description) == "cannot create '\(folder.path)/missing/.r.json.PID.partial': No such file or directory")
        #expect(error?.errno == ENOENT)
    }

    @Test func aDestinationThatCannotBeReplacedKeepsTheCause() throws {
        // A folder, not empty, where the file should go: rename(2) cannot put a file there.
        try FileManager.default.createDirectory(atPath: path("r.json/inside"), withIntermediateDirectories: true)
        let file = OutputFile(path: path("r.json"))
        file.append("{}")
        let error = #expect(throws: FolderError.self) { try file.commit(trailer: "\n") }
        #expect(shape(error?.description) == "cannot rename '\(folder.path)/.r.json.PID.partial' to '\(path("r.json"))': Is a directory")
        #expect(error?.errno == EISDIR)
    }

    /// A device, a named pipe, or a link to one at the path is never replaced by a file: run as
    /// root, `--report json=/dev/null` put a regular file in place of the container's /dev/null.
    @Test func aDeviceOrAPipeAtThePathIsRefusedUntouched() throws {
        #expect(mkfifo(path("pipe"), 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: path("null-link"), withDestinationPath: "/dev/null")
        for (name, what) in [("pipe", "a named pipe"), ("null-link", "a link to a device")] {
            let file = OutputFile(path: path(name))
            file.append("{}")
            let error = #expect(throws: FolderError.self) { try file.commit() }
            #expect(error?.description == "cannot write '\(path(name))': it is \(what), not a file (an output is a new file put in place of what is at its path); name a file")
        }
        #expect(FileSystem.kind(path("pipe")) == .other)
        #expect(FileSystem.kind(path("null-link")) == .link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("null-link")) == "/dev/null")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["null-link", "pipe"], "no hidden file made")
        // A link to a file is still replaced (never written through), as before.
        try "precious\n".write(toFile: path("victim"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("r.json"), withDestinationPath: path("victim"))
        try OutputFile.write("{}\n", to: path("r.json"))
        #expect(try contents("victim") == "precious\n")
        #expect(try contents("r.json") == "{}\n")
    }

    @Test func aHeaderIsWrittenInFrontOfTheBody() throws {
        let file = OutputFile(path: path("r.txt"))
        file.append("body\n")
        try file.commit(header: "head\n", trailer: "tail\n")
        #expect(try contents("r.txt") == "head\nbody\ntail\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["r.txt"], "no hidden file left")
    }

    /// A link planted at a hidden file's name (a pull request can commit one) is removed as a
    /// name: the file it points to is untouched, and what is written goes to a new file.
    @Test func aLinkAtAHiddenNameIsNeverWrittenThrough() throws {
        try "precious\n".write(toFile: path("victim"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path(".r.md.partial"), withDestinationPath: path("victim"))
        let descriptor = try OutputFile.createNew(path(".r.md.partial"))
        try FileSystem.writeAll(Array("report\n".utf8), to: descriptor, path: path(".r.md.partial"))
        close(descriptor)
        #expect(try contents("victim") == "precious\n")
        #expect(try contents(".r.md.partial") == "report\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path(".r.md.partial"))[.type] as? FileAttributeType == .typeRegular)
    }

    /// A hard link at a hidden name is a name too: truncating it would empty the file it shares.
    @Test func aHardLinkAtAHiddenNameIsNotTruncated() throws {
        try "precious\n".write(toFile: path("victim"), atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(atPath: path("victim"), toPath: path(".r.json.partial"))
        close(try OutputFile.createNew(path(".r.json.partial")))
        #expect(try contents("victim") == "precious\n")
    }

    /// Two outputs of one file under two names (a linked folder) each write a hidden file of their
    /// own: the file is whole, the last one committed.
    @Test func twoOutputsOfOneFileDoNotShareAHiddenFile() throws {
        try FileManager.default.createSymbolicLink(atPath: path("alias"), withDestinationPath: folder.path)
        let first = OutputFile(path: path("out.report"))
        let second = OutputFile(path: path("alias/out.report"))
        first.append(String(repeating: "h", count: 1 << 17))
        second.append(String(repeating: "j", count: 1 << 17))
        try first.commit(header: "<html>", trailer: "</html>")
        try second.commit(header: "{", trailer: "}")
        let written = try contents("out.report")
        #expect(written == "{" + String(repeating: "j", count: 1 << 17) + "}")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["alias", "out.report"], "no hidden file left")
    }

    /// A link at the destination is replaced by the file, and what it pointed to is left alone
    /// (the person named the path; the link is the repository's).
    @Test func aLinkAtTheDestinationIsReplacedNotFollowed() throws {
        try "precious\n".write(toFile: path("victim"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("baseline.json"), withDestinationPath: path("victim"))
        try OutputFile.write("new\n", to: path("baseline.json"))
        #expect(try contents("victim") == "precious\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path("baseline.json"))[.type] as? FileAttributeType == .typeRegular)
        #expect(try contents("baseline.json") == "new\n")
    }

    /// An output abandoned before it is committed leaves nothing.
    @Test func anAbandonedOutputLeavesNothing() throws {
        do {
            let file = OutputFile(path: path("r.html"))
            file.append(String(repeating: "x", count: 1 << 17))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
