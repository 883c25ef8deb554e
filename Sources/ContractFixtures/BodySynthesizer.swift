import ContractJSON
import ContractModel
import ContractSchema

/// Builds a JSON value from a schema, for cases without an `example`: seeded (the same case
/// always gets the same body), minimal but realistic (required properties always, optional ones
/// by the seed), and within the schema's bounds and formats. The result is a candidate: the caller
/// validates it and says where an example is needed when it does not pass.
///
/// Schemas are read as the conjunction they are: `$ref` and `allOf` are expanded into a list of
/// parts that must all hold (``SchemaFacts`` intersects their types, enums and bounds), and each
/// `oneOf`/`anyOf` picks a branch that joins the list; when the parts then contradict each other
/// (no common type, no shared enum value), the next branch is tried.
struct BodySynthesizer {
    /// Parsed documents of the tree by relative path, for `$ref`.
    let documents: [String: JSONDocument]
    /// Shared files by the absolute `$id` at their root, for `$ref`s by URI.
    let identifiers: [String: String]
    var random: SeededRandom
    /// Whether a schema's own `examples` may stand for a scalar value: realistic, but the caller
    /// turns it off for later attempts in case an example does not fit a constraint beside it.
    var usesExamples = true
    /// How deep the value being built is (members and elements).
    private(set) var depth = 0
    /// Branch choices open at once: a schema that reaches itself through `oneOf` stops here.
    private var choices = 0
    /// Schema steps left for the value being built, so no schema makes the synthesis run long.
    private var budget = 0
    /// Where in the value the synthesis is (member names, element indexes).
    private var path: [String] = []
    /// The deepest place where no value could be built and why, for the message asking for an example.
    private(set) var failure: (path: [String], reason: String)?

    /// Below this depth, optional properties and array items beyond the minimum are left out.
    static let growthDepth = 8
    /// After this many steps of one value, optional properties and array items beyond the
    /// minimum are left out too. A schema graph where every object reaches many others through
    /// optional members (Microsoft Graph's entities and their navigation properties) otherwise
    /// grows each body until `stepsPerValue`, so a case's cost grew with the document's graph,
    /// not with the case: 150 ms a case on Graph's Files module. Far above any body a small API makes.
    static let growthSteps = 2_000
    static let maximumDepth = 32
    static let maximumChoices = 64
    static let stepsPerValue = 100_000
    /// Branches of one `oneOf`/`anyOf` tried before giving up on it (the first is the seed's).
    static let branchesTried = 4

    /// - Parameter identifiers: ``identifiers(in:)`` of `documents`, worked out once for a tree:
    ///   one synthesizer is made per case, and looking through every document of the tree for each
    ///   made the cases' cost grow with the tree's size.
    init(documents: [String: JSONDocument], identifiers: [String: String], seed: String) {
        self.documents = documents
        self.identifiers = identifiers
        random = SeededRandom(seed: seed)
    }

    /// A value for `schema`, written in the file `file` (relative to the tree): the file's root,
    /// or (`inline`) a schema of its own inside it, whose `#…` references mean its own members.
    mutating func value(for schema: JSONValue, in file: String, inline: Bool = false) -> JSONValue? {
        budget = Self.stepsPerValue
        depth = 0
        choices = 0
        path = []
        failure = nil
        let result = value(of: [SchemaPart(schema: schema, file: file, resource: inline ? schema : nil, base: nil)])
        PlanningWork.current?.add(synthesisSteps: Self.stepsPerValue - budget)
        return result
    }

    /// A value every one of `parts` accepts (as far as the synthesis can tell).
    mutating func value(of parts: [SchemaPart]) -> JSONValue? {
        guard depth < Self.maximumDepth, budget > 0 else {
            fail(budget > 0 ? "the schema nests deeper than \(Self.maximumDepth) levels" : "the schema takes more than \(Self.stepsPerValue) steps")
            return nil
        }
        guard var flat = flattened(parts) else { return nil }
        budget -= 1
        if let index = flat.firstIndex(where: { $0.schema.objectValue?["oneOf"] != nil || $0.schema.objectValue?["anyOf"] != nil }) {
            return choosingBranch(in: &flat, at: index)
        }
        do {
            return value(satisfying: try SchemaFacts(flat))
        } catch {
            fail(error.reason)
            return nil
        }
    }

    /// Notes why no value could be built here, if this is the deepest such place so far.
    mutating func fail(_ reason: String) {
        if failure == nil || path.count >= failure?.path.count ?? 0 { failure = (path, reason) }
    }

    /// Where and why the last value could not be built, or nil.
    var failureDescription: String? {
        failure.map { "at \($0.path.isEmpty ? "/" : "/" + $0.path.joined(separator: "/")): \($0.reason)" }
    }

    /// `parts` with every `$ref` and `allOf` replaced by what they name: plain schema objects that
    /// must all hold. Nil when one is `false` or names nothing. A reference met twice is one part.
    private mutating func flattened(_ parts: [SchemaPart]) -> [SchemaPart]? {
        var result: [SchemaPart] = []
        var pending = Array(parts.reversed())
        var expanded: Set<String> = []
        while let part = pending.popLast() {
            guard budget > 0 else { return nil }
            budget -= 1
            switch part.schema {
            case .bool(true):
                continue
            case .object(var object):
                // A schema with its own `$id` is a resource of its own: references under it
                // resolve against it.
                let part = entering(part, object)
                var inner: [SchemaPart] = []
                if let reference = object["$ref"]?.stringValue {
                    object["$ref"] = nil
                    guard let target = resolve(reference, from: part) else {
                        fail("'\(reference)' (in \(part.file)) names nothing")
                        return nil
                    }
                    if expanded.insert(target.file + "|" + (target.base ?? "") + "#" + (reference.split(separator: "#", maxSplits: 1).dropFirst().first.map(String.init) ?? "")).inserted {
                        inner.append(target)
                    }
                }
                if let all = object["allOf"]?.arrayValue {
                    object["allOf"] = nil
                    inner += all.map(part.child)
                }
                result.append(part.child(.object(object)))
                pending += inner.reversed()
            default:
                fail("a schema (in \(part.file)) is \(part.schema == .bool(false) ? "false, which nothing matches" : "not an object")")
                return nil
            }
        }
        return result
    }

    /// One branch of the first `oneOf`/`anyOf` among `flat`, chosen by the seed; the next ones when
    /// it contradicts the other parts.
    private mutating func choosingBranch(in flat: inout [SchemaPart], at index: Int) -> JSONValue? {
        guard choices < Self.maximumChoices, var object = flat[index].schema.objectValue else { return nil }
        let keyword = object["oneOf"] != nil ? "oneOf" : "anyOf"
        guard let branches = object[keyword]?.arrayValue, !branches.isEmpty else {
            fail("an empty '\(keyword)' (in \(flat[index].file)) matches nothing")
            return nil
        }
        object[keyword] = nil
        flat[index].schema = .object(object)
        choices += 1
        defer { choices -= 1 }
        let start = random.next(below: branches.count)
        for offset in 0..<min(branches.count, Self.branchesTried) {
            let branch = flat[index].child(branches[(start + offset) % branches.count])
            if let value = value(of: flat + [branch]) { return value }
        }
        return nil
    }

    private mutating func value(satisfying facts: SchemaFacts) -> JSONValue? {
        if let constant = facts.constant { return constant }
        if let options = facts.options {
            let fitting = options.filter(facts.admitsType)
            guard !fitting.isEmpty else {
                fail("no value of the enum has the type the schemas want")
                return nil
            }
            return fitting[random.next(below: fitting.count)]
        }
        switch preferredType(facts) {
        case "object": return objectValue(facts)
        case "array": return arrayValue(facts)
        case "string": return example(facts) ?? stringValue(facts)
        case "integer": return example(facts) ?? numberValue(facts, integer: true)
        case "number": return example(facts) ?? numberValue(facts, integer: false)
        case "boolean": return example(facts) ?? .bool(true)
        case "null": return .null
        default: return nil
        }
    }

    private func preferredType(_ facts: SchemaFacts) -> String? {
        if let names = facts.types { return names.first { $0 != "null" } ?? names.first }
        if !facts.properties.isEmpty || !facts.required.isEmpty { return "object" }
        if !facts.items.isEmpty || !facts.prefixItems.isEmpty { return "array" }
        if !facts.patterns.isEmpty || facts.format != nil || facts.minLength > 0 { return "string" }
        if facts.minimum != nil || facts.maximum != nil || facts.multipleOf != nil { return "number" }
        return "null"
    }

    /// The schema's own first example, for a scalar of the chosen type within its bounds.
    private func example(_ facts: SchemaFacts) -> JSONValue? {
        guard usesExamples else { return nil }
        return facts.examples.first { example in
            switch example {
            case .string(let text):
                let length = text.unicodeScalars.count
                return facts.admitsType(example) && length >= facts.minLength && length <= (facts.maxLength ?? .max)
                    && facts.patterns.allSatisfy { (try? ECMARegex($0))?.matches(text) == true }
            case .number(let number):
                let value = number.doubleValue
                return facts.admitsType(example) && value >= (facts.minimum ?? -.infinity) && value <= (facts.maximum ?? .infinity)
                    && value > (facts.exclusiveMinimum ?? -.infinity) && value < (facts.exclusiveMaximum ?? .infinity)
            case .bool: return facts.admitsType(example)
            default: return false
            }
        }
    }

    /// Whether the value being built has taken ``growthSteps`` already: from here on, only what is required.
    private var grown: Bool { budget <= Self.stepsPerValue - Self.growthSteps }

    private mutating func objectValue(_ facts: SchemaFacts) -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        let required = Set(facts.required)
        var members: [JSONObject.Member] = []
        // Deep in a recursive schema (a tree of nodes), only what is required, so the value ends.
        let deep = depth > Self.growthDepth || grown
        var left: [(name: String, parts: [SchemaPart])] = []
        for property in facts.properties {
            guard required.contains(property.name) || (!deep && random.next(below: 2) == 0) else {
                left.append(property)
                continue
            }
            path.append(property.name)
            let built = value(of: property.parts)
            path.removeLast()
            guard let value = built else {
                if required.contains(property.name) { return nil }
                continue
            }
            members.append(JSONObject.Member(key: property.name, value: value))
        }
        // Required names without a schema of their own, then as many more as `minProperties` asks.
        for name in facts.required.sorted() where facts.property(name) == nil {
            members.append(JSONObject.Member(key: name, value: value(of: facts.additionalProperties) ?? .string("example")))
        }
        var extra = 1
        while members.count < facts.minProperties {
            if !left.isEmpty {
                let property = left.removeFirst()
                if let value = value(of: property.parts) { members.append(JSONObject.Member(key: property.name, value: value)) }
            } else {
                guard !facts.additionalPropertiesForbidden, let value = value(of: facts.additionalProperties) else { return nil }
                members.append(JSONObject.Member(key: "key\(extra)", value: value))
                extra += 1
            }
        }
        if let maximum = facts.maxProperties, members.count > maximum {
            members = members.filter { required.contains($0.key) }
        }
        return .object(JSONObject(members))
    }

    private mutating func arrayValue(_ facts: SchemaFacts) -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        for parts in facts.prefixItems {
            guard let value = value(of: parts) else { return nil }
            elements.append(value)
        }
        let maximum = facts.maxItems ?? Int.max
        if !facts.contains.isEmpty, elements.count < maximum, !facts.itemsForbidden {
            guard let value = value(of: facts.contains + facts.items) else { return nil }
            elements.append(value)
        }
        let wanted = facts.items.isEmpty ? facts.minItems : max(facts.minItems, depth > Self.growthDepth || grown ? elements.count : elements.count + 1)
        let count = min(maximum, wanted)
        if !facts.itemsForbidden {
            while elements.count < count {
                path.append(String(elements.count))
                let built = value(of: facts.items)
                path.removeLast()
                guard let value = built else { return nil }
                elements.append(value)
            }
        }
        if facts.uniqueItems, Set(elements).count != elements.count { elements = Array(elements.prefix(1)) }
        return .array(elements)
    }
}

/// SplitMix64 seeded from text: the same seed gives the same sequence on every machine.
struct SeededRandom {
    private var state: UInt64

    init(seed: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        bound <= 1 ? 0 : Int(next() % UInt64(bound))
    }
}
