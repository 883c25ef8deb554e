import ContractJSON
import Foundation
import TestSupport
import Testing

/// The public JSONTestSuite (`test_parsing/`): `y_` must parse, `n_` must fail with a
/// located message, `i_` may do either but must not crash or hang.
struct JSONTestSuiteTests {
    static let directory = SharedData.url("json-test-suite/test_parsing")

    static func files(_ prefix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    @Test func suiteIsPresent() {
        #expect(Self.files("y_").count == 95)
        #expect(Self.files("n_").count == 188)
        #expect(Self.files("i_").count == 35)
    }

    @Test(arguments: files("y_"))
    func accepts(_ name: String) throws {
        let bytes = try Self.bytes(name)
        #expect(throws: Never.self) { try JSONParser().parse(bytes) }
    }

    @Test(arguments: files("n_"))
    func rejects(_ name: String) throws {
        let bytes = try Self.bytes(name)
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(bytes) }
        #expect(error?.message.isEmpty == false)
        #expect((error?.location.line ?? 0) >= 1)
        #expect((error?.location.column ?? 0) >= 1)
    }

    /// The tape parser agrees with the value parser on every file: the same tape, or the same error.
    @Test(arguments: files("y_") + files("n_") + files("i_"))
    func tapeParserAgrees(_ name: String) throws {
        let bytes = try Self.bytes(name)
        let viaValue = Result { () throws(JSONSyntaxError) in try JSONParser().parse(bytes) }
        let direct = Result { () throws(JSONSyntaxError) in try JSONParser().parseTape(bytes) }
        switch (viaValue, direct) {
        case (.success(let document), .success(let tape)):
            // JSONValue keeps the last of duplicate keys; the tape keeps every member.
            if document.duplicateKeys.isEmpty { #expect(tape == JSONTape(document.value)) }
        case (.failure(let expected), .failure(let actual)):
            #expect(actual == expected)
        default:
            Issue.record("one parser accepted what the other rejected: \(viaValue) vs \(direct)")
        }
    }

    @Test(arguments: files("i_"))
    func decidesWithoutCrashing(_ name: String) throws {
        let bytes = try Self.bytes(name)
        do {
            _ = try JSONParser().parse(bytes)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }
}
