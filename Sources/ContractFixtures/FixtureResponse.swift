import ContractJSON
import ContractModel
import ContractSchema

/// The response half of a fixture: a status the case accepts, headers that pass its checks, and a
/// body: the case's `example`, or one synthesized from its schema and validated before use.
enum FixtureResponse {
    static let attempts = 8

    static func json(
        _ contract: Contract, _ testCase: ContractCase, catalog: SchemaCatalog, documents: [String: JSONDocument], relativeFile: String
    ) -> Result<JSONValue, FixtureMessage> {
        let expected = testCase.response
        var members: [JSONObject.Member] = [.init(key: "status", value: .number(JSONNumber(status(expected.status))))]
        var headers: [(String, String)] = []
        for header in expected.headers {
            switch header.matcher {
            case .equals(let value):
                guard !value.mentionsEnvironment else { continue }
                headers.append((header.name, FixtureRequest.render(value)))
            case .pattern(let pattern):
                guard let example = PatternSynthesizer.matchingExample(for: pattern) else {
                    return .failure(FixtureMessage("cannot make a value for header '\(header.name)' matching '\(pattern)'"))
                }
                headers.append((header.name, example))
            case .present:
                headers.append((header.name, "example"))
            case .absent:
                continue
            }
        }
        switch expected.body {
        case .json(let reference, let example):
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) { headers.append(("Content-Type", "application/json")) }
            let schema: JSONSchema
            do {
                schema = try catalog.compile(reference)
            } catch {
                return .failure(FixtureMessage("its response schema does not compile: \(error)"))
            }
            if let example {
                guard schema.isValid(example) else { return .failure(FixtureMessage("its 'example' does not match its schema (run 'contract lint')")) }
                members.append(.init(key: "body", value: example))
            } else {
                var synthesizer = BodySynthesizer(documents: documents, seed: "\(contract.id)/\(testCase.name)")
                var firstError = "no value could be built"
                var body: JSONValue? = nil
                for attempt in 0..<attempts {
                    synthesizer.random = SeededRandom(seed: "\(contract.id)/\(testCase.name)/\(attempt)")
                    // A schema's example may not fit what sits beside it: the later attempts do without.
                    synthesizer.usesExamples = attempt < attempts / 2
                    guard let candidate = synthesizer.value(for: reference.schema, in: relativeFile, inline: !reference.pointer.isRoot) else {
                        if attempt == 0, let failure = synthesizer.failureDescription { firstError = "no value could be built \(failure)" }
                        continue
                    }
                    let errors = schema.validate(candidate).errors
                    if errors.isEmpty {
                        body = candidate
                        break
                    }
                    if attempt == 0, let error = errors.first { firstError = "\(error.instanceLocation.isRoot ? "/" : error.instanceLocation.description): \(error.message) (at \(catalog.display(error.absoluteKeywordLocation)))" }
                }
                guard let body else {
                    return .failure(FixtureMessage("cannot synthesize a body valid against its schema: \(firstError); add an 'example' to the response"))
                }
                members.append(.init(key: "body", value: body))
            }
        case .text(.equals(let text)):
            members.append(.init(key: "text", value: .string(text)))
        case .text(.pattern(let pattern)):
            guard let text = PatternSynthesizer.matchingExample(for: pattern) else {
                return .failure(FixtureMessage("cannot make a text body matching '\(pattern)'"))
            }
            members.append(.init(key: "text", value: .string(text)))
        case .empty, .unchecked:
            break
        }
        if !headers.isEmpty {
            members.insert(.init(key: "headers", value: .array(headers.map { FixtureRequest.pair($0.0, $0.1) })), at: 1)
        }
        return .success(.object(JSONObject(members)))
    }

    /// The status a fixture answers with: the first exact code, else the first class's x00.
    static func status(_ expectation: StatusExpectation) -> Int {
        for case .code(let code) in expectation.alternatives { return code }
        for case .class(let digit) in expectation.alternatives { return digit * 100 }
        return 200
    }
}
