import ContractFiles
import Foundation
import Testing

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

    @Test func aMissingFolderIsNamedWithTheSystemsReason() {
        let file = OutputFile(path: path("missing/r.json"))
        file.append("{}")
        let error = #expect(throws: FolderError.self) { try file.commit(trailer: "\n") }
        #expect(error?.description == "cannot create '\(folder.path)/missing/.r.json.\(pid).partial': No such file or directory")
        #expect(error?.errno == ENOENT)
    }

    @Test func aDestinationThatCannotBeReplacedKeepsTheCause() throws {
        // A folder, not empty, where the file should go: rename(2) cannot put a file there.
        try FileManager.default.createDirectory(atPath: path("r.json/inside"), withIntermediateDirectories: true)
        let file = OutputFile(path: path("r.json"))
        file.append("{}")
        let error = #expect(throws: FolderError.self) { try file.commit(trailer: "\n") }
        #expect(error?.description == "cannot rename '\(folder.path)/.r.json.\(pid).partial' to '\(path("r.json"))': Is a directory")
        #expect(error?.errno == EISDIR)
    }

    @Test func aHeaderIsWrittenInFrontOfTheBody() throws {
        let file = OutputFile(path: path("r.txt"))
        file.append("body\n")
        try file.commit(header: "head\n", trailer: "tail\n")
        #expect(try contents("r.txt") == "head\nbody\ntail\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["r.txt"], "no hidden file left")
    }

    /// A link planted at the hidden file's name (a pull request can commit one) is removed as a
    /// name: the file it points to is untouched, and the output is a real file.
    @Test func aLinkAtTheHiddenNameIsNeverWrittenThrough() throws {
        try "precious\n".write(toFile: path("victim"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path(".r.md.\(pid).partial"), withDestinationPath: path("victim"))
        try FileManager.default.createSymbolicLink(atPath: path(".r.md.\(pid).partial.whole"), withDestinationPath: path("victim"))
        let file = OutputFile(path: path("r.md"))
        file.append("report\n")
        try file.commit(header: "head\n")
        #expect(try contents("victim") == "precious\n")
        #expect(try contents("r.md") == "head\nreport\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path("r.md"))[.type] as? FileAttributeType == .typeRegular)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["victim", "r.md"])
    }

    /// A hard link at the hidden name is a name too: truncating it would empty the file it shares.
    @Test func aHardLinkAtTheHiddenNameIsNotTruncated() throws {
        try "precious\n".write(toFile: path("victim"), atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(atPath: path("victim"), toPath: path(".r.json.\(pid).partial"))
        try OutputFile.write("{}\n", to: path("r.json"))
        #expect(try contents("victim") == "precious\n")
        #expect(try contents("r.json") == "{}\n")
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
