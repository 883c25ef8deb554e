import ContractJSON

extension Evaluator {
    mutating func applyArray(_ keyword: Keyword, _ node: SchemaNode, _ array: Int, _ annotations: inout Annotations?) -> Bool {
        let doc = self.doc  // a local copy, so closures reading it do not overlap mutations of self
        var none: Annotations? = nil  // child instances never pass annotations up
        let count = doc.count(array)
        switch keyword {
        case .maxItems(let limit):
            guard count <= limit else {
                fail(node, "maxItems", "expected at most \(Self.count(limit, "item")), found \(count)")
                return false
            }
        case .minItems(let limit):
            guard count >= limit else {
                fail(node, "minItems", "expected at least \(Self.count(limit, "item")), found \(count)")
                return false
            }
        case .uniqueItems:
            // Short arrays (the usual case) are compared in place; long ones hashed as values.
            let duplicate = doc.firstDuplicate(inArray: array) ?? Self.firstDuplicate(doc.value(array).arrayValue ?? [])
            if let (first, second) = duplicate {
                fail(node, "uniqueItems", "expected unique items, found items \(first) and \(second) equal")
                return false
            }
        case .items(let borrowed):
            if isLean && annotations == nil { return borrowed.with { checkItems(array, $0) } }
            return borrowed.with { applyItems($0, node, array, count, &annotations) }
        case .contains(let schema, let minimum, let maximum):
            var matching: [Int] = []
            var element = array + 1
            for index in 0..<count {
                var ignored: Annotations? = nil
                if schema.with({ quietly($0, element, &ignored) }) { matching.append(index) }
                element = doc.end(element)
            }
            if matching.count < minimum {
                fail(node, "contains", "expected at least \(Self.count(minimum, "item")) matching 'contains', found \(matching.count)")
                return false
            }
            if let maximum, matching.count > maximum {
                fail(node, "maxContains", "expected at most \(Self.count(maximum, "item")) matching 'contains', found \(matching.count)")
                return false
            }
            annotations?.containedItems.formUnion(matching)
        case .unevaluatedItems(let schema):
            let evaluated = annotations ?? Annotations()
            guard !evaluated.allItems else { return true }
            var valid = true
            var element = array + 1
            for index in 0..<count {
                defer { element = doc.end(element) }
                guard index >= evaluated.itemPrefix && !evaluated.containedItems.contains(index) else { continue }
                if !schema.with({ descend($0, element, keyword: ["unevaluatedItems"], instance: String(index), &none) }) {
                    valid = false
                    if !collecting { return false }
                }
            }
            if valid { annotations?.allItems = true }
            return valid
        default:
            break
        }
        return true
    }

    private mutating func applyItems(_ items: ItemsKeyword, _ node: SchemaNode, _ array: Int, _ count: Int, _ annotations: inout Annotations?) -> Bool {
        var none: Annotations? = nil
        let prefix = items.prefix
        var valid = true
        var element = array + 1
        for index in 0..<count {
            let ok: Bool
            if index < prefix.count {
                ok = prefix[index].with { descend($0, element, keyword: [items.prefixKeyword, String(index)], instance: String(index), &none) }
            } else if let rest = items.rest {
                ok = rest.with { descend($0, element, keyword: [items.restKeyword], instance: String(index), &none) }
            } else {
                break
            }
            if !ok {
                valid = false
                if !collecting { return false }
            }
            element = doc.end(element)
        }
        if valid, var updated = annotations {
            updated.itemPrefix = max(updated.itemPrefix, min(prefix.count, count))
            if items.rest != nil { updated.allItems = true }
            annotations = updated
        }
        return valid
    }

    /// The index of the member value named `name`, if the object has it.
    func member(_ object: Int, _ name: String) -> Int? {
        var key = object + 1
        for _ in 0..<doc.count(object) {
            if TapeView.same(doc.utf8(key), name) { return key + 1 }
            key = doc.end(key + 1)
        }
        return nil
    }

    mutating func applyObject(_ keyword: Keyword, _ node: SchemaNode, _ object: Int, _ annotations: inout Annotations?) -> Bool {
        let doc = self.doc  // a local copy, so closures reading it do not overlap mutations of self
        var none: Annotations? = nil
        let count = doc.count(object)
        switch keyword {
        case .maxProperties(let limit):
            guard count <= limit else {
                fail(node, "maxProperties", "expected at most \(Self.count(limit, "property", "properties")), found \(count)")
                return false
            }
        case .minProperties(let limit):
            guard count >= limit else {
                fail(node, "minProperties", "expected at least \(Self.count(limit, "property", "properties")), found \(count)")
                return false
            }
        case .required(let boxed):
            let names = boxed.object.value
            var valid = true
            for name in names where member(object, name) == nil {
                fail(node, "required", "missing required property '\(name)'")
                valid = false
                if !collecting { return false }
            }
            return valid
        case .dependentRequired(let boxed):
            let dependencies = boxed.object.value
            var valid = true
            for (property, required) in dependencies where member(object, property) != nil {
                for name in required where member(object, name) == nil {
                    fail(node, "dependentRequired", "missing property '\(name)', required when '\(property)' is present")
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .properties(let properties):
            if isLean && annotations == nil { return properties.with { checkProperties(object, $0) } }
            return properties.with { applyProperties(node, object, $0, &annotations) }
        case .propertyNames(let schema):
            var valid = true
            var key = object + 1
            for _ in 0..<count {
                // Each name is validated as a string value: the key entry is one.
                if !schema.with({ descend($0, key, keyword: ["propertyNames"], &none) }) {
                    valid = false
                    if !collecting { return false }
                }
                key = doc.end(key + 1)
            }
            return valid
        case .dependentSchemas(let boxed, let isDraft7Dependencies):
            let name = isDraft7Dependencies ? "dependencies" : "dependentSchemas"
            var valid = true
            for (property, schema) in boxed.object.value where member(object, property) != nil {
                if !schema.with({ descend($0, object, keyword: [name, property], &annotations) }) {
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .unevaluatedProperties(let schema):
            let evaluated = annotations ?? Annotations()
            guard !evaluated.allProperties else { return true }
            var valid = true
            var key = object + 1
            for _ in 0..<count {
                defer { key = doc.end(key + 1) }
                let name = doc.string(key)
                guard !evaluated.properties.contains(name) else { continue }
                if case .alwaysInvalid = schema.object.body {
                    fail(node, "unevaluatedProperties", "unexpected property '\(MessageText.clipped(name))', which no subschema describes", member: name)
                    valid = false
                } else if !schema.with({ descend($0, key + 1, keyword: ["unevaluatedProperties"], instance: name, &none) }) {
                    valid = false
                }
                if !valid && !collecting { return false }
            }
            if valid { annotations?.allProperties = true }
            return valid
        default:
            break
        }
        return true
    }

    private mutating func applyProperties(
        _ node: SchemaNode, _ object: Int, _ properties: PropertiesKeyword, _ annotations: inout Annotations?
    ) -> Bool {
        let doc = self.doc  // a local copy, so closures reading it do not overlap mutations of self
        var none: Annotations? = nil  // child instances never pass annotations up
        var valid = true
        // Required names folded in here: reported first when collecting, counted otherwise.
        if collecting {
            for name in properties.required where member(object, name) == nil {
                fail(node, "required", "missing required property '\(name)'")
                valid = false
            }
        }
        var requiredSeen = RequiredTally()
        var key = object + 1
        var absent: [String]?
        var guess = 0
        for _ in 0..<doc.count(object) {
            let value = key + 1
            defer { key = doc.end(value) }
            let name = doc.utf8(key)
            var described = false
            if let index = properties.position(utf8: name, guess: guess) {
                described = true
                guess = index + 1
                if properties.isRequired[index] { requiredSeen.see(index, of: properties.names.count) }
                let matched = properties.schemas[index].with {
                    descend($0, value, keyword: ["properties", doc.string(key)], instance: doc.string(key), &none)
                }
                if !matched {
                    valid = false
                    if !collecting { return false }
                }
            }
            for (pattern, schema) in zip(properties.patterns, properties.patternSchemas) where pattern.with({ $0.matches(utf8: name) }) {
                described = true
                let source = pattern.object.source
                if !schema.with({ descend($0, value, keyword: ["patternProperties", source], instance: doc.string(key), &none) }) {
                    valid = false
                    if !collecting { return false }
                }
            }
            guard !described, let additional = properties.additional else { continue }
            if case .alwaysInvalid = additional.with(\.body) {
                if collecting {
                    let unexpected = doc.string(key)
                    // The names this object lacks, found once per object and only while errors
                    // are kept: per key, it made a body of many unexpected members quadratic.
                    if errors.count < limit && absent == nil { absent = properties.names.filter { member(object, $0) == nil } }
                    let hint = errors.count < limit ? suggestion(for: unexpected, among: absent ?? []) : nil
                    fail(node, "additionalProperties", "unexpected property '\(MessageText.clipped(unexpected))'\(hint.map { ", did you mean '\($0)'?" } ?? "")", member: unexpected)
                }
                valid = false
                if !collecting { return false }
            } else if !additional.with({ descend($0, value, keyword: ["additionalProperties"], instance: doc.string(key), &none) }) {
                valid = false
                if !collecting { return false }
            }
        }
        if !collecting && requiredSeen.count < properties.required.count { return false }
        if valid, annotations != nil {
            if properties.additional != nil {
                annotations?.allProperties = true
            } else {
                var key = object + 1
                for _ in 0..<doc.count(object) {
                    let name = doc.utf8(key)
                    if properties.position(utf8: name) != nil || properties.matchesPattern(utf8: name) {
                        annotations?.properties.insert(doc.string(key))
                    }
                    key = doc.end(key + 1)
                }
            }
        }
        return valid
    }

    /// The indices of the first two equal items, by JSON equality (so `1` equals `1.0`).
    static func firstDuplicate(_ elements: [JSONValue]) -> (Int, Int)? {
        if elements.count < 16 {
            for i in elements.indices {
                for j in (i + 1)..<elements.count where elements[i] == elements[j] { return (i, j) }
            }
            return nil
        }
        var seen: [JSONValue: Int] = [:]
        for (index, element) in elements.enumerated() {
            if let first = seen.updateValue(index, forKey: element) { return (first, index) }
        }
        return nil
    }
}
