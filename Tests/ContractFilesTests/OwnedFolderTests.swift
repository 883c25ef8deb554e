import Foundation
import Testing

@testable import ContractFiles

/// The owned folder on a real file system: changes all at once, other files kept as they are,
/// no path and no link leading out of the folder.
struct OwnedFolderTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("owned-\(UUID().uuidString)").path
    var folder: String { root + "/out" }

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func path(_ text: String) throws -> FolderPath { try FolderPath(validating: text) }

    func write(_ text: String, at relative: String, in base: String? = nil) throws {
        let url = URL(fileURLWithPath: (base ?? folder) + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func text(_ relative: String, in base: String? = nil) -> String? {
        try? String(contentsOfFile: (base ?? folder) + "/" + relative, encoding: .utf8)
    }

    func inode(_ path: String) -> UInt64 {
        var info = stat()
        lstat(path, &info)
        return UInt64(info.st_ino)
    }

    /// Every entry under `base`, with file contents and link targets: the folder as a value.
    func snapshot(_ base: String) -> [String: String] {
        var entries: [String: String] = [:]
        func walk(_ relative: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: base + "/" + relative)) ?? [] {
                let child = relative.isEmpty ? name : relative + "/" + name
                let full = base + "/" + child
                switch FileSystem.kind(full) {
                case .directory: entries[child + "/"] = ""; walk(child)
                case .link: entries[child] = "-> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?")
                default: entries[child] = text(child, in: base) ?? "?"
                }
            }
        }
        walk("")
        return entries
    }

    @Test func writesRemovesAndKeepsEverythingElse() throws {
        try write("mine", at: "README.md")
        try write("old", at: "a/one.json")
        try write("gone", at: "a/two.json")
        try write("gone too", at: "b/three.json")
        try write("user", at: "c/notes.txt")
        try FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: true)
        let readme = inode(folder + "/README.md")
        try OwnedFolder(path: folder).replace(
            writing: [path("a/one.json"): Array("new".utf8), path("d/four.json"): Array("4".utf8)],
            removing: [path("a/two.json"), path("b/three.json")])
        #expect(snapshot(folder) == [
            "README.md": "mine", "a/": "", "a/one.json": "new", "c/": "", "c/notes.txt": "user", "d/": "", "d/four.json": "4", "empty/": "",
        ])
        #expect(inode(folder + "/README.md") == readme, "a file kept is the same file, linked, not copied")
        #expect(OwnedFolder(path: folder).leftovers().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["out"], "nothing left beside the folder")
    }

    @Test func aFolderIsCreatedAndANoOpTouchesNothing() throws {
        let owned = OwnedFolder(path: folder)
        try owned.replace(writing: [path("x/y.json"): [1, 2]], removing: [])
        #expect(owned.read(try path("x/y.json")) == [1, 2])
        let before = inode(folder)
        try owned.replace(writing: [:], removing: [path("not/there.json")])
        #expect(inode(folder) == before)
    }

    @Test(arguments: ["../victim.txt", "../../../victimdir/victim.txt", "/etc/passwd", "a//b", "a/./b", "a/../../b", "a\\..\\b", ""])
    func pathsThatCouldLeaveTheFolderAreRefused(_ text: String) {
        #expect(throws: FolderPathError.self) { try FolderPath(validating: text) }
    }

    /// `out/health.get -> ../outside`: nothing is written, overwritten or removed through it.
    @Test func linksAreNeverFollowed() throws {
        let outside = root + "/outside"
        try write("victim", at: "ok.json", in: outside)
        try write("victim", at: "victim.txt", in: outside)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/health.get", withDestinationPath: "../outside")
        let owned = OwnedFolder(path: folder)
        #expect(owned.obstacle(at: try path("health.get/ok.json"))?.contains("is a symbolic link") == true)
        #expect(owned.read(try path("health.get/ok.json")) == nil)
        #expect(!owned.exists(try path("health.get/victim.txt")))
        let error = #expect(throws: FolderError.self) {
            try owned.replace(writing: [path("health.get/ok.json"): Array("fixture".utf8)], removing: [])
        }
        #expect(error?.description.contains("symbolic link") == true)
        // Removing through the link does nothing; the link itself is kept as a link.
        try owned.replace(writing: [path("other.json"): [1]], removing: [path("health.get/victim.txt"), path("health.get/ok.json")])
        #expect(snapshot(outside) == ["ok.json": "victim", "victim.txt": "victim"])
        #expect(FileSystem.kind(folder + "/health.get") == .link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/health.get") == "../outside")
    }

    @Test func aLinkAtAnOwnedPathIsRemovedNotFollowed() throws {
        let outside = root + "/outside"
        try write("victim", at: "victim.txt", in: outside)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/owned.json", withDestinationPath: outside + "/victim.txt")
        try OwnedFolder(path: folder).replace(writing: [:], removing: [path("owned.json")])
        #expect(FileSystem.kind(folder + "/owned.json") == .missing)
        #expect(text("victim.txt", in: outside) == "victim")
    }

    @Test func aFolderAtAnOwnedPathStays() throws {
        try write("user", at: "a.json/inside.txt")
        try OwnedFolder(path: folder).replace(writing: [path("b.json"): [1]], removing: [path("a.json")])
        #expect(text("a.json/inside.txt") == "user")
    }

    @Test func leftoversOfAKilledRunAreReportedThenRemoved() throws {
        try write("old", at: "a/one.json")
        try write("half", at: "a/.one.json.contract-tmp")
        try write("half", at: "x.json", in: root + "/.out.contract-swap-4242")
        try write("unrelated", at: "keep.txt", in: root + "/.out.contract-swap-notanumber")
        let owned = OwnedFolder(path: folder)
        #expect(Set(owned.leftovers()) == [root + "/.out.contract-swap-4242", folder + "/a/.one.json.contract-tmp"])
        try owned.replace(writing: [:], removing: [])
        #expect(owned.leftovers().isEmpty)
        #expect(snapshot(folder) == ["a/": "", "a/one.json": "old"])
        #expect(text("keep.txt", in: root + "/.out.contract-swap-notanumber") == "unrelated")
    }

    /// Where a file system cannot exchange two folders, the old contents wait beside the folder
    /// between two renames; a run killed there is undone by the next.
    @Test func aRunKilledBetweenTheFallbackRenamesIsUndone() throws {
        try write("old", at: "a.json", in: root + "/.out.contract-old-77")
        let owned = OwnedFolder(path: folder)
        #expect(owned.leftovers() == [root + "/.out.contract-old-77"])
        try owned.replace(writing: [path("b.json"): Array("new".utf8)], removing: [])
        #expect(snapshot(folder) == ["a.json": "old", "b.json": "new"])
        #expect(owned.leftovers().isEmpty)
    }

    /// A link with a reserved name, committed beside the folder, must never become the folder.
    @Test func aLinkNamedLikeTheOldContentsIsNotRestored() throws {
        let victim = root + "/victim"
        try write("secret", at: "id_rsa", in: victim)
        try FileManager.default.createSymbolicLink(atPath: root + "/.out.contract-old-1", withDestinationPath: victim)
        let owned = OwnedFolder(path: folder)
        try owned.replace(writing: [path("f.json"): [1]], removing: [])
        try owned.replace(writing: [path("g.json"): [2]], removing: [])
        #expect(FileSystem.kind(folder) == .directory)
        #expect(snapshot(victim) == ["id_rsa": "secret"])
        #expect(snapshot(folder) == ["f.json": "\u{1}", "g.json": "\u{2}"])
        #expect(FileSystem.kind(root + "/.out.contract-old-1") == .missing, "a leftover name, removed as a link")
    }

    @Test func aPersonsFileEndingLikeATemporaryOneIsKept() throws {
        try write("mine", at: "mine/draft.contract-tmp")
        try write("half", at: "mine/.x.json.contract-tmp")
        try OwnedFolder(path: folder).replace(writing: [path("f.json"): [1]], removing: [])
        #expect(text("mine/draft.contract-tmp") == "mine")
        #expect(FileSystem.kind(folder + "/mine/.x.json.contract-tmp") == .missing)
    }

    @Test func aReadOnlyFolderKeepsItsModeAndItsFiles() throws {
        try write("mine", at: "locked/notes.txt")
        chmod(folder + "/locked", 0o555)
        defer { chmod(folder + "/locked", 0o755) }
        try OwnedFolder(path: folder).replace(writing: [path("f.json"): [1]], removing: [])
        #expect(text("locked/notes.txt") == "mine")
        #expect(FileSystem.mode(folder + "/locked") == 0o555)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["out"])
    }

    @Test func aFolderGivenAsALinkIsWrittenWhereItLeads() throws {
        let real = root + "/real"
        try write("mine", at: "keep.txt", in: real)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: real)
        try OwnedFolder(path: folder).replace(writing: [path("f.json"): [1]], removing: [])
        #expect(FileSystem.kind(folder) == .link)
        #expect(snapshot(real) == ["keep.txt": "mine", "f.json": "\u{1}"])
    }

    @Test func concurrentChangesNeverMix() async throws {
        try write("0", at: "n.json")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let writes = Dictionary(uniqueKeysWithValues: (0..<20).map { (try! FolderPath(validating: "f\($0).json"), Array("\(index)".utf8)) })
                    try? OwnedFolder(path: folder).replace(writing: writes, removing: [])
                }
            }
        }
        let values = Set((0..<20).map { text("f\($0).json") })
        #expect(values.count == 1, "every file from the same change")
        #expect(OwnedFolder(path: folder).leftovers().isEmpty)
    }
}
