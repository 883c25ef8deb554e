import ContractJSON
import ContractSchema
import Foundation
import TestSupport
import Testing

@testable import ContractFixtures

/// Synthesized bodies over the official JSON-Schema-Test-Suite: for every schema that has a valid
/// instance, the synthesizer's candidates are checked by the validator, as `contract fixtures`
/// does before writing. How many schemas get a valid body is the synthesizer's reach.
struct BodySynthesisTests {
    static let directory = SharedData.url("json-schema-test-suite/tests/draft2020-12")

    struct Sample {
        var name: String
        var schema: JSONValue
    }

    static func samples() throws -> [Sample] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        var samples: [Sample] = []
        for file in files {
            let groups = try JSONParser().parse(Array(Data(contentsOf: directory.appendingPathComponent(file)))).value.arrayValue ?? []
            for group in groups {
                guard let schema = group.objectValue?["schema"],
                    group.objectValue?["tests"]?.arrayValue?.contains(where: { $0.objectValue?["valid"]?.boolValue == true }) == true
                else { continue }
                samples.append(Sample(name: "\(file): \(group.objectValue?["description"]?.stringValue ?? "")", schema: schema))
            }
        }
        return samples
    }

    /// The suite's draft 2020-12 groups with a valid instance, and how many of their schemas
    /// compile without the suite's remote documents; both change only with the suite or the
    /// compiler, so a missing or half-read suite folder fails here rather than passing on nothing.
    static let expectedSamples = 358
    static let expectedCompiled = 338
    /// How many of those get a valid body: the synthesizer's reach. Raise it when the synthesizer
    /// does better; a lower count is a regression.
    static let expectedSynthesized = 302

    @Test func candidatesAreCheckedAndMostSchemasGetAValidBody() throws {
        let samples = try Self.samples()
        #expect(samples.count == Self.expectedSamples, "\(samples.count) suite schemas with a valid instance under '\(Self.directory.path)'")
        var compiled = 0
        var synthesized = 0
        for sample in samples {
            // Schemas reaching the suite's remote documents are out of scope here.
            guard let schema = try? JSONSchema(sample.schema) else { continue }
            compiled += 1
            let document = JSONDocument(value: sample.schema, source: SourceText([], indexLines: false), sourceMap: nil, duplicateKeys: [])
            for seed in 0..<FixtureResponse.attempts {
                var synthesizer = BodySynthesizer(documents: ["schema.json": document], identifiers: BodySynthesizer.identifiers(in: ["schema.json": document]), seed: "\(sample.name)/\(seed)")
                if let candidate = synthesizer.value(for: sample.schema, in: "schema.json"), schema.isValid(candidate) {
                    synthesized += 1
                    if ProcessInfo.processInfo.environment["LIST_SYNTHESIZED"] != nil { print("SYNTH \(sample.name)") }
                    break
                }
            }
        }
        #expect(compiled == Self.expectedCompiled, "\(compiled) of \(samples.count) suite schemas compiled")
        #expect(
            synthesized == Self.expectedSynthesized,
            "\(synthesized) of \(compiled) compiled suite schemas got a valid body, expected \(Self.expectedSynthesized); if the synthesizer got better, raise expectedSynthesized")
        #expect(synthesized * 100 >= compiled * 85, "synthesized \(synthesized) of \(compiled)")
    }

    @Test func theSameSeedGivesTheSameBody() throws {
        let schema = try JSONParser().parse(#"{"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}, "n": {"type": "integer"}}}"#).value
        var first = BodySynthesizer(documents: [:], identifiers: [:], seed: "a/b")
        var second = BodySynthesizer(documents: [:], identifiers: [:], seed: "a/b")
        #expect(first.value(for: schema, in: "x.json") == second.value(for: schema, in: "x.json"))
    }

    /// Microsoft Graph's durations: a pattern whose shortest example (`P`) is no duration. The
    /// format's example, which the pattern takes, is the value.
    @Test func aFormatsExampleThatThePatternTakesIsUsed() throws {
        let schema = try JSONParser().parse(
            #"{"type": "string", "format": "duration", "pattern": "^-?P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+([.][0-9]+)?S)?)?$"}"#).value
        var synthesizer = BodySynthesizer(documents: [:], identifiers: [:], seed: "a/b")
        let built = synthesizer.value(for: schema, in: "x.json")
        let value = try #require(built)
        #expect(try JSONSchema(schema).isValid(value), "\(value)")
        #expect(value != "P")
    }

    @Test func patternsCommonInAPIs() throws {
        for pattern in ["^[A-Z]{3}-[0-9]{4,6}$", "^v[0-9]+(\\.[0-9]+)?$", "^/api/products/[0-9]+$", "^[a-z_]+$", "^(GET|POST)$", "^\\d{3}$"] {
            let example = try #require(PatternSynthesizer.example(for: pattern), "\(pattern)")
            #expect(try ECMARegex(pattern).matches(example), "\(pattern) -> \(example)")
        }
    }
}
