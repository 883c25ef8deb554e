import Foundation
import Testing

@testable import ContractFiles

/// A failed change says what failed and where in its message, and keeps the cause (the system's
/// error, or Foundation's) for a caller that acts on it.
struct FolderErrorTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("folder-error-\(UUID().uuidString)").path

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    @Test func aSystemCallsErrorIsKeptBesideTheMessage() {
        let path = root + "/missing/a.json"
        let error = #expect(throws: FolderError.self) { try FileSystem.create(path, [1]) }
        #expect(error?.description == "cannot create \(path): No such file or directory")
        #expect((error?.underlying as? POSIXError)?.code == .ENOENT)
        #expect(error?.errno == ENOENT)
    }

    @Test func foundationsErrorIsKeptBesideTheMessage() throws {
        // A file where the folder's parent has to be.
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/file"))
        let error = #expect(throws: FolderError.self) {
            try OwnedFolder(path: root + "/file/out").replace(writing: [FolderPath(validating: "a.json"): [1]], removing: [])
        }
        #expect(error?.description.hasPrefix("cannot create the folder \(root)/file: ") == true, "\(error?.description ?? "")")
        #expect(error?.underlying != nil)
        #expect(error?.errno == EEXIST, "the system's error, under Foundation's: \(String(describing: error?.underlying))")
    }

    @Test func aRefusalOfTheFolderHasNoCause() throws {
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/out/link", withDestinationPath: "..")
        let error = #expect(throws: FolderError.self) {
            try OwnedFolder(path: root + "/out").replace(writing: [FolderPath(validating: "link/a.json"): [1]], removing: [])
        }
        #expect(error?.description.contains("symbolic link") == true)
        #expect(error?.underlying == nil && error?.errno == nil)
    }
}
