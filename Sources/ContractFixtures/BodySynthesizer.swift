import ContractJSON
import ContractModel
import ContractSchema

/// Builds a JSON value from a schema, for cases without an `example`: seeded (the same case
/// always gets the same body), minimal but realistic (required properties always, optional ones
/// by the seed), and within the schema's bounds and formats. The result is a candidate: the caller
/// validates it and says where an example is needed when it does not pass.
struct BodySynthesizer {
    /// Parsed documents of the tree by relative path, for `$ref`.
    let documents: [String: JSONDocument]
    var random: SeededRandom
    private var depth = 0
    /// Below this depth, optional properties and array items beyond the minimum are left out.
    private static let growthDepth = 8

    init(documents: [String: JSONDocument], seed: String) {
        self.documents = documents
        random = SeededRandom(seed: seed)
    }

    /// A value for `schema`, written in the file `file` (relative to the tree).
    mutating func value(for schema: JSONValue, in file: String) -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 32 else { return nil }  // a recursive schema: stop rather than loop
        if case .bool(let allowed) = schema { return allowed ? .null : nil }
        guard let object = schema.objectValue else { return nil }
        if let reference = object["$ref"]?.stringValue {
            guard let (target, targetFile) = resolve(reference, from: file) else { return nil }
            // The keywords beside `$ref` are read in this file, the target in its own.
            return value(for: merged(Self.rebased(.object(object), from: file).objectValue ?? object, with: target), in: targetFile)
        }
        if let constant = object["const"] { return constant }
        if let options = object["enum"]?.arrayValue, !options.isEmpty { return options[random.next(below: options.count)] }
        if let all = object["allOf"]?.arrayValue, !all.isEmpty {
            var combined = object
            combined["allOf"] = nil
            for part in all {
                guard var partObject = part.objectValue else { continue }
                if let reference = partObject["$ref"]?.stringValue, let (target, targetFile) = resolve(reference, from: file) {
                    // Merged here, so its own references must still find their files.
                    partObject = Self.rebased(target, from: targetFile).objectValue ?? partObject
                }
                combined = merged(combined, with: .object(partObject)).objectValue ?? combined
            }
            return value(for: .object(combined), in: file)
        }
        for keyword in ["oneOf", "anyOf"] {
            if let branches = object["oneOf"]?.arrayValue ?? object[keyword]?.arrayValue, !branches.isEmpty {
                var rest = object
                rest["oneOf"] = nil
                rest["anyOf"] = nil
                let branch = branches[random.next(below: branches.count)]
                return value(for: merged(rest, with: branch), in: file)
            }
        }
        switch preferredType(object) {
        case "object": return objectValue(object, in: file)
        case "array": return arrayValue(object, in: file)
        case "string": return stringValue(object)
        case "integer": return numberValue(object, integer: true)
        case "number": return numberValue(object, integer: false)
        case "boolean": return .bool(true)
        case "null": return .null
        default: return nil
        }
    }

    private func preferredType(_ object: JSONObject) -> String? {
        if let name = object["type"]?.stringValue { return name }
        if let names = object["type"]?.arrayValue?.compactMap(\.stringValue) { return names.first { $0 != "null" } ?? names.first }
        if object["properties"] != nil || object["required"] != nil { return "object" }
        if object["items"] != nil || object["prefixItems"] != nil { return "array" }
        if object["pattern"] != nil || object["format"] != nil || object["minLength"] != nil { return "string" }
        if object["minimum"] != nil || object["maximum"] != nil || object["multipleOf"] != nil { return "number" }
        return "null"
    }

    private mutating func objectValue(_ object: JSONObject, in file: String) -> JSONValue? {
        let properties = object["properties"]?.objectValue ?? JSONObject()
        let required = Set(object["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var members: [JSONObject.Member] = []
        // Deep in a recursive schema (a tree of nodes), only what is required, so the value ends.
        let deep = depth > Self.growthDepth
        for member in properties where required.contains(member.key) || (!deep && random.next(below: 2) == 0) {
            guard let value = value(for: member.value, in: file) else {
                if required.contains(member.key) { return nil }
                continue
            }
            members.append(JSONObject.Member(key: member.key, value: value))
        }
        // Required names without a schema of their own.
        for name in required.sorted() where properties[name] == nil {
            members.append(JSONObject.Member(key: name, value: .string("example")))
        }
        return .object(JSONObject(members))
    }

    private mutating func arrayValue(_ object: JSONObject, in file: String) -> JSONValue? {
        var elements: [JSONValue] = []
        for prefix in object["prefixItems"]?.arrayValue ?? [] {
            guard let value = value(for: prefix, in: file) else { return nil }
            elements.append(value)
        }
        let minimum = object["minItems"]?.numberValue?.intValue ?? 0
        let maximum = object["maxItems"]?.numberValue?.intValue ?? Int.max
        let count = min(maximum, max(minimum, depth > Self.growthDepth ? elements.count : elements.count + 1))
        if let items = object["items"], items != .bool(false) {
            while elements.count < count {
                guard let value = value(for: items, in: file) else { return nil }
                elements.append(value)
            }
        }
        if object["uniqueItems"]?.boolValue == true, Set(elements).count != elements.count { elements = Array(elements.prefix(1)) }
        return .array(elements)
    }

    private mutating func stringValue(_ object: JSONObject) -> JSONValue? {
        if let pattern = object["pattern"]?.stringValue {
            return PatternSynthesizer.example(for: pattern).map(JSONValue.string)
        }
        if let format = object["format"]?.stringValue, let text = FormatExamples.example(format, random: &random) {
            return .string(text)
        }
        let minimum = object["minLength"]?.numberValue?.intValue ?? 1
        let maximum = object["maxLength"]?.numberValue?.intValue ?? 40
        var text = FormatExamples.words[random.next(below: FormatExamples.words.count)]
        while text.count < minimum { text += " " + FormatExamples.words[random.next(below: FormatExamples.words.count)] }
        return .string(String(text.prefix(max(minimum, min(maximum, text.count)))))
    }

    private mutating func numberValue(_ object: JSONObject, integer: Bool) -> JSONValue? {
        func bound(_ key: String) -> Double? { object[key]?.numberValue?.doubleValue }
        let step = bound("multipleOf") ?? (integer ? 1 : 0.5)
        var low = bound("minimum") ?? bound("exclusiveMinimum").map { $0 + step } ?? 1
        let high = bound("maximum") ?? bound("exclusiveMaximum").map { $0 - step } ?? max(low, 100)
        low = max(low, min(high, 1))
        // A multiple of the step inside the bounds, a little above the minimum so it looks real.
        let steps = ((high - low) / step).rounded(.down)
        let chosen = (low / step).rounded(.up) * step + Double(random.next(below: Int(min(max(steps, 0), 10)) + 1)) * step
        let value = min(chosen, high)
        if integer { return .number(JSONNumber(Int(value.rounded()))) }
        // Through text, so 1.5 stays 1.5 and a step of 0.01 does not become 1.4999999.
        var decimals = 0
        while decimals < 8, (step * Double(pow10(decimals))).rounded() != step * Double(pow10(decimals)) { decimals += 1 }
        return JSONNumber(formatDecimal(value, decimals)).map(JSONValue.number)
    }

    private func formatDecimal(_ value: Double, _ decimals: Int) -> String {
        guard decimals > 0 else { return String(Int(value.rounded())) }
        let scale = pow10(decimals)
        let scaled = Int((value * Double(scale)).rounded())
        let whole = scaled / scale
        let fraction = String(abs(scaled % scale))
        return "\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }

    private func pow10(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { value, _ in value * 10 } }

    /// `schemas/product.json#/$defs/Price` from `products/get.json`: the target and its file. A
    /// path starting with `/` is from the tree's root (``rebased(_:from:)`` writes those).
    private func resolve(_ reference: String, from file: String) -> (JSONValue, String)? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let targetFile = path.isEmpty ? file : path.hasPrefix("/") ? String(path.dropFirst()) : RelativePath.resolve(path, from: RelativePath.folder(of: file))
        guard let targetFile,
            let document = documents[targetFile]
        else { return nil }
        let fragment = parts.count > 1 ? String(parts[1]) : ""
        guard let pointer = try? JSONPointer(uriFragment: "#" + fragment), let value = document.value[pointer: pointer] else { return nil }
        return (value, targetFile)
    }

    /// `value` (a schema read in `file`) with every reference made to work from any file: from the
    /// tree's root, `/schemas/product.json#/$defs/Price`. Values of data keywords are left alone.
    static func rebased(_ value: JSONValue, from file: String, namesOnly: Bool = false) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.members.map { member in
                // In `properties` and the like, keys are names: a property may be called `default`.
                if namesOnly { return JSONObject.Member(key: member.key, value: rebased(member.value, from: file)) }
                if ["const", "enum", "examples", "example", "default"].contains(member.key) { return member }
                if ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"].contains(member.key) {
                    return JSONObject.Member(key: member.key, value: rebased(member.value, from: file, namesOnly: true))
                }
                guard member.key == "$ref", let reference = member.value.stringValue else {
                    return JSONObject.Member(key: member.key, value: rebased(member.value, from: file))
                }
                let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let fragment = parts.count > 1 ? "#" + parts[1] : ""
                guard !path.hasPrefix("/") else { return member }
                let target = path.isEmpty ? file : RelativePath.resolve(path, from: RelativePath.folder(of: file)) ?? path
                return JSONObject.Member(key: "$ref", value: .string("/" + target + fragment))
            }))
        case .array(let elements):
            return .array(elements.map { rebased($0, from: file) })
        default:
            return value
        }
    }

    /// `base`'s keywords with `other`'s added (other wins), `$ref` dropped from `base`.
    private func merged(_ base: JSONObject, with other: JSONValue) -> JSONValue {
        guard let otherObject = other.objectValue else { return other }
        var result = base
        result["$ref"] = nil
        for member in otherObject {
            if member.key == "required", let extra = member.value.arrayValue, let existing = result["required"]?.arrayValue {
                result["required"] = .array(existing + extra)
            } else if member.key == "properties", let extra = member.value.objectValue, var existing = result["properties"]?.objectValue {
                // A property both sides describe must satisfy both: `allOf` keeps an `enum` or
                // `const` of one side that the other does not repeat.
                for property in extra {
                    existing[property.key] = existing[property.key].map { .object(JSONObject([.init(key: "allOf", value: .array([$0, property.value]))])) }
                        ?? property.value
                }
                result["properties"] = .object(existing)
            } else {
                result[member.key] = member.value
            }
        }
        return .object(result)
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
