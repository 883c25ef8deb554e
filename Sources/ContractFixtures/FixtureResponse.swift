import ContractJSON
import ContractModel
import ContractRequests
import ContractSchema

/// The response half of a fixture: a status the case accepts, headers that pass its checks, and a
/// body: the case's `example`, or one synthesized from its schema and validated before use.
enum FixtureResponse {
    static let attempts = 8

    static func json(
        _ contract: Contract, _ testCase: ContractCase, catalog: SchemaCatalog, documents: [String: JSONDocument], identifiers: [String: String],
        relativeFile: String
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
                // A value no answer can carry (a line break) is passed over for the pattern's
                // other values; one whose values all hold one (`^a\nb$`) gets no fixture.
                let carried = PatternSynthesizer.matchingExample(for: pattern, excluding: FieldSyntax.isForbiddenInValue)
                guard let example = carried else {
                    guard PatternSynthesizer.matchingExample(for: pattern) != nil else {
                        return .failure(FixtureMessage("cannot make a value for header '\(header.name)' matching '\(pattern)'"))
                    }
                    return .failure(FixtureMessage(
                        "cannot make a value for header '\(header.name)' matching '\(pattern)' that a header can carry: each value found holds a line break or a control character (RFC 9110 §5.5)"))
                }
                headers.append((header.name, example))
            case .present:
                headers.append((header.name, "example"))
            case .absent:
                continue
            case .differs:
                // What it differs from is known only in a flow: any value is one a fixture may show.
                headers.append((header.name, "example"))
            }
        }
        switch expected.body.base {
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
                var synthesizer = BodySynthesizer(documents: documents, identifiers: identifiers, seed: "\(contract.id)/\(testCase.name)")
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
        case .text(let matcher):
            let conditions = matcher.conditions
            let bytes: [UInt8]
            switch text(conditions) {
            case .success(let made): bytes = made
            case .failure(let message): return .failure(message)
            }
            if let charset = conditions.charset, !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                headers.append(("Content-Type", "text/plain; charset=\(charset.rawValue)"))
            }
            // The text as the fixture's `text` when its UTF-8 is the body, else the bytes themselves.
            let decoded = conditions.decodingCharset.decode(bytes)
            if Array(decoded.utf8) == bytes {
                members.append(.init(key: "text", value: .string(decoded)))
            } else {
                members.append(.init(key: "base64", value: .string(Base64Text.encode(bytes))))
            }
        case .binary(let expectation):
            let bytes: [UInt8]
            switch binary(expectation) {
            case .success(let made): bytes = made
            case .failure(let message): return .failure(message)
            }
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) { headers.append(("Content-Type", "application/octet-stream")) }
            if !bytes.isEmpty { members.append(.init(key: "base64", value: .string(Base64Text.encode(bytes)))) }
        case .empty, .unchecked:
            break
        }
        if !headers.isEmpty {
            members.insert(.init(key: "headers", value: .array(headers.map { FixtureRequest.pair($0.0, $0.1) })), at: 1)
        }
        return .success(.object(JSONObject(members)))
    }

    /// A text body that passes `conditions`, checked with the same test `contract verify` uses
    /// (``TextConditions/mismatches(_:regex:)``) before it is used: `equals` itself; else the
    /// pattern's example, the `contains` substrings after or before it, padded to the length.
    /// A digest cannot be met without the text it is of.
    static func text(_ conditions: TextConditions) -> Result<[UInt8], FixtureMessage> {
        let charset = conditions.decodingCharset
        if let equals = conditions.equals {
            guard let bytes = charset.encode(equals), passes(bytes, conditions) else {
                return .failure(FixtureMessage("its 'text' conditions do not hold for its 'equals' (run 'contract lint')"))
            }
            return .success(bytes)
        }
        if let sha256 = conditions.sha256 {
            return .failure(FixtureMessage("cannot make a text body whose SHA-256 is \(sha256.prefix(12))…; add 'equals' (the text itself) to its 'text'"))
        }
        var bases = [""]
        if let pattern = conditions.pattern {
            let bounded = PatternSynthesizer.matchingExample(for: pattern, minLength: conditions.length.minimum ?? 0, maxLength: conditions.length.maximum)
            let unbounded = PatternSynthesizer.matchingExample(for: pattern)
            // With substrings to add, the pattern's shortest example leaves the length to padding.
            bases = (conditions.contains.isEmpty ? [bounded, unbounded] : [unbounded, bounded]).compactMap { $0 }
            if bases.isEmpty { return .failure(FixtureMessage("cannot make a text body matching '\(pattern)'")) }
        }
        for base in bases {
            guard let baseBytes = charset.encode(base) else { continue }
            let missing = conditions.contains.compactMap(charset.encode).filter { ByteSearch.firstOffset(of: $0, in: baseBytes) == nil }
            for separator in [[UInt8(ascii: " ")], []] {
                let joined = Array(missing.joined(separator: separator))
                let arrangements = missing.isEmpty ? [baseBytes]
                    : baseBytes.isEmpty ? [joined]
                    : [baseBytes + separator + joined, joined + separator + baseBytes]
                for candidate in arrangements {
                    for padded in padded(candidate, to: conditions.length.minimum ?? 0) where passes(padded, conditions) {
                        return .success(padded)
                    }
                }
            }
        }
        let given = [
            conditions.pattern.map { "matching '\($0)'" }, conditions.contains.isEmpty ? nil : "containing every 'contains' substring",
            conditions.length.isAny ? nil : "of \(conditions.length)", conditions.charset.map { "in \($0.displayName)" },
        ].compactMap { $0 }
        return .failure(FixtureMessage("cannot make a text body \(given.joined(separator: ", ")); add 'equals' with a text that passes to its 'text'"))
    }

    /// `bytes`, and when shorter than `minimum`, filled up at the end or the start.
    private static func padded(_ bytes: [UInt8], to minimum: Int) -> [[UInt8]] {
        guard bytes.count < minimum else { return [bytes] }
        return [UInt8(ascii: " "), UInt8(ascii: "x"), UInt8(ascii: "0")].flatMap { filler -> [[UInt8]] in
            let fill = [UInt8](repeating: filler, count: minimum - bytes.count)
            return [bytes + fill, fill + bytes]
        }
    }

    private static func passes(_ bytes: [UInt8], _ conditions: TextConditions) -> Bool {
        conditions.mismatches(bytes, regex: { try? ECMARegex($0) }).isEmpty
    }

    /// A binary body that passes `expectation`: its bytes, else zero bytes of the exact or least
    /// length. A digest cannot be met without the bytes it is of.
    static func binary(_ expectation: BinaryExpectation) -> Result<[UInt8], FixtureMessage> {
        if expectation.bytes == nil, let sha256 = expectation.sha256 {
            return .failure(FixtureMessage("cannot make a binary body whose SHA-256 is \(sha256.prefix(12))…; add 'base64' (the bytes themselves) to its 'binary'"))
        }
        let bytes = expectation.bytes ?? [UInt8](repeating: 0, count: expectation.length.minimum ?? 0)
        guard expectation.mismatches(bytes).isEmpty else {
            return .failure(FixtureMessage("its 'binary' expectation does not hold for the bytes it gives (run 'contract lint')"))
        }
        return .success(bytes)
    }

    /// The status a fixture answers with: the first exact code, else the first class's x00.
    static func status(_ expectation: StatusExpectation) -> Int {
        for case .code(let code) in expectation.alternatives { return code }
        for case .class(let digit) in expectation.alternatives { return digit * 100 }
        return 200
    }
}
