import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractDiff

/// Links in the folder of an OpenAPI document at a revision: made as links when they lead inside
/// the copy, left out with a warning placed at the link when they lead out of it or nowhere.
/// The time limit guards against a hang, not a slow machine (as DiffSourceTests').
@Suite(.timeLimit(.minutes(20)))
struct RevisionLinkTests {
    @Test func aLinkLeftOutIsSaidAtTheLink() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("RevisionLinkTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let repository = root + "/repo"
        try FileManager.default.createDirectory(atPath: repository + "/api", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SharedData.packageRoot.path + "/examples/MarketAPI/openapi.yaml", toPath: repository + "/api/openapi.yaml")
        try Data("type: object\n".utf8).write(to: URL(fileURLWithPath: root + "/elsewhere.yaml"))
        try FileManager.default.createSymbolicLink(atPath: repository + "/api/out.yaml", withDestinationPath: root + "/elsewhere.yaml")
        try FileManager.default.createSymbolicLink(atPath: repository + "/api/up.yaml", withDestinationPath: "../../elsewhere.yaml")
        try FileManager.default.createSymbolicLink(atPath: repository + "/api/nowhere.yaml", withDestinationPath: "missing.yaml")
        try FileManager.default.createSymbolicLink(atPath: repository + "/api/alias.yaml", withDestinationPath: "openapi.yaml")
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        let script = "git init -q -b main && git add . && git -c user.name=t -c user.email=t@example.com commit -q -m links"
        let (status, _, error) = try ChildProcess.run("/bin/sh", ["-c", script], in: repository, environment: environment)
        #expect(status == 0, "\(String(decoding: error, as: UTF8.self))")

        let tree = try DiffSource.load("HEAD:api/openapi.yaml", workingDirectory: repository, git: "git", temporaryRoot: root + "/tmp").get()
        let warnings = tree.importDiagnostics.map(\.rendered).filter { $0.contains("a link") }
        #expect(warnings == [
            "HEAD:api/nowhere.yaml: warning: a link leading to nothing in its folder at that revision: not copied, so the import reads nothing through it",
            "HEAD:api/out.yaml: warning: a link leading out of its folder at that revision: not copied, so the import reads nothing through it",
            "HEAD:api/up.yaml: warning: a link leading out of its folder at that revision: not copied, so the import reads nothing through it",
        ], "\(tree.importDiagnostics.map(\.rendered))")
        // The link inside is one at the revision too.
        #expect(try DiffSource.load("HEAD:api/alias.yaml", workingDirectory: repository, git: "git", temporaryRoot: root + "/tmp").get().set.treeDigest == tree.set.treeDigest)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: root + "/tmp")) == [])
    }
}
