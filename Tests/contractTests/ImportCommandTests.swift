import Foundation
import Testing

/// `contract import openapi` through the real binary: bad documents stop with exit 2 and write
/// nothing; a re-import rewrites only what an import wrote.
struct ImportCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")

    func write(_ text: String, to name: String) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func importDocument(_ path: String, out: String) throws -> ContractBinary.Result {
        try ContractBinary.run(["import", "openapi", path, "--out", out], in: folder)
    }

    static let valid = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /health:
            get:
              operationId: health
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {type: object, required: [status], properties: {status: {const: ok}}}
        """

    @Test(arguments: [
        ("openapi: 3.0.0\ninfo: {title: t\n", "broken.yaml:3:1: error: invalid YAML:"),
        ("swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n", "broken.yaml:1:10: error: Swagger 2.0 documents are not supported"),
        ("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Missing'}\n",
         "broken.yaml:11:30: error: '#/components/schemas/Missing' points to nothing in this document [/paths/~1a/get/responses/200/content/application~1json/schema/$ref]"),
        ("openapi: 3.2.0\ninfo: {title: t, version: '1'}\npaths: {}\n", "broken.yaml:1:10: error: OpenAPI 3.2.0 is not supported: 3.0.x and 3.1.x are"),
        ("openapi: 3.1.0\npaths: {}\n", "error: not a valid OpenAPI document:"),
    ])
    func malformedDocumentsStopWithExit2AndWriteNothing(_ document: String, _ expected: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try write(document, to: "broken.yaml")
        let result = try ContractBinary.run(["import", "openapi", "broken.yaml", "--out", "out"], in: folder)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "\(path)")
    }

    @Test func reimportRewritesOnlyWhatAnImportWrote() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try write(Self.valid, to: "api.yaml")
        let out = folder.appendingPathComponent("out")
        let first = try importDocument(document, out: out.path)
        #expect(first.exitCode == 0, "\(first.stderr)")
        let contract = out.appendingPathComponent("health.json")
        let bytes = try Data(contentsOf: contract)
        let manifest = try Data(contentsOf: out.appendingPathComponent(".contract-import.json"))

        // The same document again: the same bytes, nothing rewritten.
        let second = try importDocument(document, out: out.path)
        #expect(second.stdout.contains("0 files written, 1 unchanged"), "\(second.stdout)")
        #expect(try Data(contentsOf: contract) == bytes)
        #expect(try Data(contentsOf: out.appendingPathComponent(".contract-import.json")) == manifest)

        // A person's own contract beside the generated ones is never touched, even when the
        // document later produces a file of that name: the import stops instead.
        let own = out.appendingPathComponent("mine.json")
        try "{\"person\": true}".write(to: own, atomically: true, encoding: .utf8)
        _ = try write(Self.valid.replacingOccurrences(of: "operationId: health", with: "operationId: mine"), to: "api.yaml")
        let clash = try importDocument(document, out: out.path)
        #expect(clash.exitCode == 2)
        #expect(clash.stderr.contains("mine.json: error: this file was not written by an import"), "\(clash.stderr)")
        #expect(try String(contentsOf: own, encoding: .utf8) == "{\"person\": true}")
        #expect(try Data(contentsOf: contract) == bytes)

        // An edited generated file is kept too.
        try FileManager.default.removeItem(at: own)
        _ = try write(Self.valid, to: "api.yaml")
        try "{}".write(to: contract, atomically: true, encoding: .utf8)
        let edited = try importDocument(document, out: out.path)
        #expect(edited.exitCode == 2)
        #expect(edited.stderr.contains("health.json: error: this file was edited since the last import"), "\(edited.stderr)")
        #expect(try String(contentsOf: contract, encoding: .utf8) == "{}")
    }

    @Test func aChangedDocumentRemovesTheContractsItNoLongerHas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try write(Self.valid, to: "api.yaml")
        let out = folder.appendingPathComponent("out")
        #expect(try importDocument(document, out: out.path).exitCode == 0)
        _ = try write(Self.valid.replacingOccurrences(of: "operationId: health", with: "operationId: status"), to: "api.yaml")
        let result = try importDocument(document, out: out.path)
        #expect(result.stdout.contains("1 files written, 0 unchanged, 1 removed"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("health.json").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("status.json").path))
        #expect(try ContractBinary.run(["lint", out.path], in: folder).exitCode == 0)
    }
}
