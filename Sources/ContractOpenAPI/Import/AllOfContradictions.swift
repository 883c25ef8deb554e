import ContractJSON
import ContractModel

/// `allOf` parts that no value can satisfy together, found in the document before conversion.
///
/// Published envelopes do this: `ApiResponse` says `result: {type: [array, null]}`, and an
/// operation's `allOf: [ApiResponse, {properties: {result: {type: object}}}]` narrows `result` to
/// what the envelope forbids. No response can match such a schema, so verify could only fail and
/// no fixture could be made. The author plainly meant the later, more specific part to refine the
/// envelope: the envelope's `type` for that property is left out (it then still checks everything
/// else). A later part whose own type contradicts the earlier parts (`allOf: [Envelope, {type:
/// string}]`, meant as the envelope's `result`) is left out instead, keeping the envelope.
struct AllOfContradictions {
    /// Schemas whose type (`type`, `nullable`, and the `anyOf`/`oneOf` that give it) is left out,
    /// with the warning that says why.
    private(set) var droppedTypes: [JSONPointer: String] = [:]
    /// `allOf` entries left out, with the warning that says why.
    private(set) var droppedParts: [JSONPointer: String] = [:]
    private let document: OpenAPIDocument

    /// How many references or nested `allOf`s are followed from one schema: far beyond real use.
    private static let maximumSteps = 64

    init(document: OpenAPIDocument) {
        self.document = document
        findContradictions()
    }

    // MARK: Finding every allOf

    private mutating func findContradictions() {
        for (_, holder, parts) in AllOfMemberSchemas.holders(in: document) where parts.count > 1 {
            check(parts, at: holder.appending("allOf"))
        }
    }

    private mutating func check(_ parts: [JSONValue], at pointer: JSONPointer) {
        var accumulated: Set<String>? = nil
        var kept: [(JSONValue, JSONPointer)] = []
        for (index, part) in parts.enumerated() {
            let partPointer = pointer.appending(index)
            var steps = 0
            let types = types(of: part, at: partPointer, steps: &steps)
            if let types, let earlier = accumulated, index > 0, Self.disjoint(earlier, types) {
                droppedParts[partPointer] = "this 'allOf' part is \(Self.describe(types)) but the parts before it make \(Self.describe(earlier)), and no value is both: left out, so the earlier parts still check the value"
                continue
            }
            if let types { accumulated = accumulated.map { Self.intersection($0, types) } ?? types }
            kept.append((part, partPointer))
        }
        // Each property as the kept parts declare it, in order.
        var declarations: [String: [(pointer: JSONPointer, types: Set<String>?, direct: Bool)]] = [:]
        var order: [String] = []
        for (part, partPointer) in kept {
            var steps = 0
            collectProperties(of: part, at: partPointer, into: &declarations, order: &order, steps: &steps)
        }
        for name in order {
            guard let list = declarations[name], list.count > 1 else { continue }
            for later in 1..<list.count {
                guard let laterTypes = list[later].types else { continue }
                for earlier in 0..<later {
                    guard list[earlier].direct, droppedTypes[list[earlier].pointer] == nil, let earlierTypes = list[earlier].types,
                        Self.disjoint(earlierTypes, laterTypes)
                    else { continue }
                    droppedTypes[list[earlier].pointer] =
                        "'\(name)' is \(Self.describe(earlierTypes)) here, but \(Self.describe(laterTypes)) in \(Self.shown(list[later].pointer)), and the 'allOf' of \(Self.shown(pointer.parent ?? pointer)) wants both, which no value is: the type given here ('type', 'anyOf', 'oneOf') is left out, so the more specific part decides"
                }
            }
        }
    }

    /// The properties `schema` declares, through references and nested `allOf`s.
    private func collectProperties(
        of schema: JSONValue, at pointer: JSONPointer, into declarations: inout [String: [(pointer: JSONPointer, types: Set<String>?, direct: Bool)]],
        order: inout [String], steps: inout Int
    ) {
        steps += 1
        guard steps < Self.maximumSteps, let (object, at) = document.resolved(schema, at: pointer) else { return }
        for member in object["properties"]?.objectValue ?? JSONObject() {
            var innerSteps = 0
            let propertyPointer = at.appending("properties").appending(member.key)
            let types = types(of: member.value, at: propertyPointer, steps: &innerSteps)
            if declarations[member.key] == nil { order.append(member.key) }
            // Only a declaration that says its type itself can be mended here; one through a `$ref` is another schema's.
            let written = member.value.objectValue.map { $0["$ref"] == nil && ($0["type"] != nil || $0["anyOf"] != nil || $0["oneOf"] != nil) } ?? false
            declarations[member.key, default: []].append((propertyPointer, types, written))
        }
        for (index, part) in (object["allOf"]?.arrayValue ?? []).enumerated() {
            collectProperties(of: part, at: at.appending("allOf").appending(index), into: &declarations, order: &order, steps: &steps)
        }
    }

    // MARK: Types

    /// The JSON types `schema` admits as far as its `type`, `enum`, `allOf`, `anyOf` and `oneOf`
    /// say, or nil when they do not say.
    private func types(of schema: JSONValue, at pointer: JSONPointer, steps: inout Int) -> Set<String>? {
        steps += 1
        guard steps < Self.maximumSteps, let (object, at) = document.resolved(schema, at: pointer) else { return nil }
        var result: Set<String>? = nil
        func narrow(_ types: Set<String>?) {
            guard let types else { return }
            result = result.map { Self.intersection($0, types) } ?? types
        }
        if let name = object["type"]?.stringValue {
            narrow([name])
        } else if let names = object["type"]?.arrayValue?.compactMap(\.stringValue) {
            narrow(Set(names))
        } else if let values = object["enum"]?.arrayValue {
            narrow(Set(values.map(Self.typeName)))
        }
        if object["nullable"]?.boolValue == true, result != nil { result?.insert("null") }
        for (index, part) in (object["allOf"]?.arrayValue ?? []).enumerated() {
            narrow(types(of: part, at: at.appending("allOf").appending(index), steps: &steps))
        }
        for keyword in ["anyOf", "oneOf"] {
            guard let branches = object[keyword]?.arrayValue, !branches.isEmpty else { continue }
            var union: Set<String> = []
            var known = true
            for (index, branch) in branches.enumerated() {
                guard let types = types(of: branch, at: at.appending(keyword).appending(index), steps: &steps) else {
                    known = false
                    break
                }
                union.formUnion(types)
            }
            if known { narrow(union) }
        }
        return result
    }

    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        case .number(let number): number.doubleValue.rounded() == number.doubleValue ? "integer" : "number"
        }
    }

    /// Whether no value has a type both sets admit (`number` admits `integer`).
    static func disjoint(_ first: Set<String>, _ second: Set<String>) -> Bool {
        intersection(first, second).isEmpty
    }

    private static func intersection(_ first: Set<String>, _ second: Set<String>) -> Set<String> {
        var result = first.intersection(second)
        if first.contains("number"), second.contains("integer") { result.insert("integer") }
        if second.contains("number"), first.contains("integer") { result.insert("integer") }
        return result
    }

    /// `an array or null`, `a string, an integer or null`.
    private static func describe(_ types: Set<String>) -> String {
        let names = types.sorted { ($0 == "null" ? 1 : 0, $0) < ($1 == "null" ? 1 : 0, $1) }.map { name in
            name == "null" ? name : (["array", "object", "integer"].contains(name) ? "an " : "a ") + name
        }
        guard let last = names.last else { return "nothing" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// `components/schemas/Pet`, or the pointer.
    private static func shown(_ pointer: JSONPointer) -> String {
        let tokens = pointer.tokens
        if tokens.count >= 3, tokens[0] == "components", tokens[1] == "schemas" {
            return "'\(tokens[2])'" + (tokens.count > 3 ? " (\(JSONPointer(tokens: Array(tokens.dropFirst(3))).description))" : "")
        }
        return "'\(pointer.description)'"
    }
}
