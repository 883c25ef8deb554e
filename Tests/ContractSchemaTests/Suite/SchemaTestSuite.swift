import ContractJSON
import ContractSchema
import Foundation
import TestSupport

/// The official JSON-Schema-Test-Suite, read from `../shared/json-schema-test-suite`.
enum SchemaTestSuite {
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var group: String
        var test: String
        var schema: JSONValue
        var data: JSONValue
        var valid: Bool
        var dialect: SchemaDialect
        /// The required suite treats `format` as an annotation; `optional/format` asserts it.
        var assertsFormats: Bool

        var id: String { "\(file): \(group) / \(test)" }
        var description: String { id }
    }

    static let root = SharedData.url("json-schema-test-suite")

    /// Every file of `remotes/`, registered at `http://localhost:1234/…` as the suite expects.
    static let registry: SchemaRegistry = {
        var registry = SchemaRegistry()
        let remotes = root.appendingPathComponent("remotes")
        let enumerator = FileManager.default.enumerator(at: remotes, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "json", let data = try? Data(contentsOf: url),
                let value = try? JSONParser(tracksLocations: false).parse(Array(data)).value
            else { continue }
            let relative = url.standardizedFileURL.path.dropFirst(remotes.standardizedFileURL.path.count + 1)
            registry.register(value, uri: "http://localhost:1234/\(relative)")
        }
        return registry
    }()

    /// The cases of the files in `directory` (relative to `tests/`), sorted by file name.
    static func cases(_ directory: String, dialect: SchemaDialect) -> [Case] {
        let folder = root.appendingPathComponent("tests").appendingPathComponent(directory)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        var result: [Case] = []
        for name in names {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let groups = try? JSONParser(tracksLocations: false).parse(Array(data)).value.arrayValue
            else { continue }
            for group in groups {
                guard let object = group.objectValue, let schema = object["schema"], let tests = object["tests"]?.arrayValue else { continue }
                for test in tests {
                    guard let testObject = test.objectValue, let data = testObject["data"], let valid = testObject["valid"]?.boolValue else { continue }
                    result.append(Case(
                        file: "\(directory)/\(name)", group: object["description"]?.stringValue ?? "", test: testObject["description"]?.stringValue ?? "",
                        schema: schema, data: data, valid: valid, dialect: dialect, assertsFormats: directory.hasSuffix("format")))
                }
            }
        }
        return result
    }

    /// Compiles the case's schema and validates its data both ways; nil when they agree with the suite.
    static func disagreement(_ testCase: Case) -> String? {
        let schema: JSONSchema
        do {
            schema = try JSONSchema(testCase.schema, uri: "http://localhost:1234/suite-root.json", registry: registry, defaultDialect: testCase.dialect,
                assertsFormats: testCase.assertsFormats)
        } catch {
            return "schema did not compile: \(error)"
        }
        let verdict = schema.isValid(testCase.data)
        let result = schema.validate(testCase.data)
        if verdict != testCase.valid { return "isValid said \(verdict), expected \(testCase.valid)" }
        if result.isValid != testCase.valid { return "validate said \(result.isValid) (\(result.errors)), expected \(testCase.valid)" }
        return nil
    }
}
