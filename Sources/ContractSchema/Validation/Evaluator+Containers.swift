import ContractJSON

extension Evaluator {
    mutating func applyArray(_ keyword: Keyword, _ node: SchemaNode, _ elements: [JSONValue], _ annotations: inout Annotations?) -> Bool {
        var none: Annotations? = nil  // child instances never pass annotations up
        switch keyword {
        case .maxItems(let limit):
            guard elements.count <= limit else {
                fail(node, "maxItems", "expected at most \(Self.count(limit, "item")), found \(elements.count)")
                return false
            }
        case .minItems(let limit):
            guard elements.count >= limit else {
                fail(node, "minItems", "expected at least \(Self.count(limit, "item")), found \(elements.count)")
                return false
            }
        case .uniqueItems:
            if let (first, second) = Self.firstDuplicate(elements) {
                fail(node, "uniqueItems", "expected unique items, found items \(first) and \(second) equal")
                return false
            }
        case .items(let items):
            let prefix = items.prefix
            var valid = true
            for index in elements.indices {
                let ok: Bool
                if index < prefix.count {
                    ok = descend(prefix[index], elements[index], keyword: [items.prefixKeyword, String(index)], instance: String(index), &none)
                } else if let rest = items.rest {
                    ok = descend(rest, elements[index], keyword: [items.restKeyword], instance: String(index), &none)
                } else {
                    break
                }
                if !ok {
                    valid = false
                    if !collecting { return false }
                }
            }
            if valid, var updated = annotations {
                updated.itemPrefix = max(updated.itemPrefix, min(prefix.count, elements.count))
                if items.rest != nil { updated.allItems = true }
                annotations = updated
            }
            return valid
        case .contains(let schema, let minimum, let maximum):
            var matching: [Int] = []
            for (index, element) in elements.enumerated() {
                var ignored: Annotations? = nil
                if quietly(schema, element, &ignored) { matching.append(index) }
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
            for (index, element) in elements.enumerated() where index >= evaluated.itemPrefix && !evaluated.containedItems.contains(index) {
                if !descend(schema, element, keyword: ["unevaluatedItems"], instance: String(index), &none) {
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

    mutating func applyObject(
        _ keyword: Keyword, _ node: SchemaNode, _ object: JSONObject, _ instance: JSONValue, _ annotations: inout Annotations?
    ) -> Bool {
        var none: Annotations? = nil
        switch keyword {
        case .maxProperties(let limit):
            guard object.count <= limit else {
                fail(node, "maxProperties", "expected at most \(Self.count(limit, "property", "properties")), found \(object.count)")
                return false
            }
        case .minProperties(let limit):
            guard object.count >= limit else {
                fail(node, "minProperties", "expected at least \(Self.count(limit, "property", "properties")), found \(object.count)")
                return false
            }
        case .required(let names):
            var valid = true
            for name in names where !object.contains(name) {
                fail(node, "required", "missing required property '\(name)'")
                valid = false
                if !collecting { return false }
            }
            return valid
        case .dependentRequired(let dependencies):
            var valid = true
            for (property, required) in dependencies where object.contains(property) {
                for name in required where !object.contains(name) {
                    fail(node, "dependentRequired", "missing property '\(name)', required when '\(property)' is present")
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .properties(let properties):
            return applyProperties(node, object, properties, &annotations)
        case .propertyNames(let schema):
            var valid = true
            for key in object.keys {
                var ignored: Annotations? = nil
                if !descend(schema, .string(key), keyword: ["propertyNames"], &ignored) {
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .dependentSchemas(let dependencies, let name):
            var valid = true
            for (property, schema) in dependencies where object.contains(property) {
                if !descend(schema, instance, keyword: [name, property], &annotations) {
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .unevaluatedProperties(let schema):
            let evaluated = annotations ?? Annotations()
            guard !evaluated.allProperties else { return true }
            var valid = true
            for member in object where !evaluated.properties.contains(member.key) {
                if case .alwaysInvalid = schema.body {
                    fail(node, "unevaluatedProperties", "unexpected property '\(member.key)', which no subschema describes")
                    valid = false
                } else if !descend(schema, member.value, keyword: ["unevaluatedProperties"], instance: member.key, &none) {
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
        _ node: SchemaNode, _ object: JSONObject, _ properties: PropertiesKeyword, _ annotations: inout Annotations?
    ) -> Bool {
        var none: Annotations? = nil  // child instances never pass annotations up
        var valid = true
        // Required names folded in here: reported first when collecting, counted otherwise.
        if collecting {
            for name in properties.required where !object.contains(name) {
                fail(node, "required", "missing required property '\(name)'")
                valid = false
            }
        }
        var requiredSeen = 0
        let members = object.members
        for position in members.indices {
            let key = members[position].key
            var described = false
            if let index = properties.position(named: key) {
                described = true
                if properties.isRequired[index] { requiredSeen += 1 }
                if !descend(properties.named[index].schema, members[position].value, keyword: ["properties", key], instance: key, &none) {
                    valid = false
                    if !collecting { return false }
                }
            }
            for (pattern, schema) in properties.patterns where pattern.matches(key) {
                described = true
                if !descend(schema, members[position].value, keyword: ["patternProperties", pattern.source], instance: key, &none) {
                    valid = false
                    if !collecting { return false }
                }
            }
            guard !described, let additional = properties.additional else { continue }
            if case .alwaysInvalid = additional.body {
                if collecting {
                    let hint = suggestion(for: key, among: properties.named.map(\.name).filter { object[$0] == nil })
                    fail(node, "additionalProperties", "unexpected property '\(key)'\(hint.map { ", did you mean '\($0)'?" } ?? "")")
                }
                valid = false
                if !collecting { return false }
            } else if !descend(additional, members[position].value, keyword: ["additionalProperties"], instance: key, &none) {
                valid = false
                if !collecting { return false }
            }
        }
        if !collecting && requiredSeen < properties.required.count { return false }
        if valid, annotations != nil {
            if properties.additional != nil {
                annotations?.allProperties = true
            } else {
                for member in members
                where properties.schema(named: member.key) != nil || properties.patterns.contains(where: { $0.pattern.matches(member.key) }) {
                    annotations?.properties.insert(member.key)
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
