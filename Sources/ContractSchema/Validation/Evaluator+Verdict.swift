import ContractJSON

/// The verdict-only forms of the container keywords that apply a subschema per member or item.
/// They run when no errors are collected, no annotations are asked for and no dynamic scope is
/// kept (see ``Evaluator/isLean``): each child goes straight to ``Evaluator/check(_:_:)``, with
/// no path tokens, annotation slots or error bookkeeping in the loop.
extension Evaluator {
    /// True when a verdict alone is wanted and nothing else has to be kept on the way.
    var isLean: Bool { !collecting && !tracksDynamicScope }

    /// One keyword for a verdict, in a schema that needs no annotations: the keywords of nearly
    /// every applied schema are answered here, the rest by ``apply(_:_:_:_:)``.
    @inline(__always) mutating func checkKeyword(_ keyword: Keyword, _ node: SchemaNode, _ instance: Int) -> Bool {
        switch keyword {
        case .type(let types):
            return doc.matches(types, instance)
        case .enumeration(let values):
            let doc = self.doc
            return values.with { $0.contains(instance, in: doc) }
        case .properties(let properties):
            return doc.kind(instance) != .object || properties.with { checkProperties(instance, $0) }
        case .items(let items):
            return doc.kind(instance) != .array || items.with { checkItems(instance, $0) }
        case .ref(let target):
            return target.with { check($0, instance) }
        case .format(let format, let asserted):
            guard asserted || assertsFormats, doc.kind(instance) == .string else { return true }
            return FormatChecker.isValid(utf8: doc.utf8(instance), format: format)
        case .pattern(let pattern):
            let doc = self.doc
            return doc.kind(instance) != .string || pattern.with { $0.matches(utf8: doc.utf8(instance)) }
        case .minimum(let bound):
            return doc.kind(instance) != .number || compare(instance, bound) >= 0
        case .maximum(let bound):
            return doc.kind(instance) != .number || compare(instance, bound) <= 0
        case .exclusiveMinimum(let bound):
            return doc.kind(instance) != .number || compare(instance, bound) > 0
        case .exclusiveMaximum(let bound):
            return doc.kind(instance) != .number || compare(instance, bound) < 0
        case .multipleOf(let divisor):
            return doc.kind(instance) != .number || isMultiple(instance, of: divisor)
        case .maxLength(let limit):
            // The UTF-8 size bounds the code points from above, which settles most strings uncounted.
            guard doc.kind(instance) == .string else { return true }
            let utf8 = doc.utf8(instance)
            return utf8.count <= limit || Self.codePoints(utf8) <= limit
        case .minLength(let limit):
            // A code point takes at most four bytes, so a long enough string needs no counting.
            guard doc.kind(instance) == .string else { return true }
            let utf8 = doc.utf8(instance)
            return utf8.count / 4 >= limit || Self.codePoints(utf8) >= limit
        default:
            var none: Annotations? = nil
            return apply(keyword, node, instance, &none)
        }
    }

    /// `properties`, `patternProperties`, `additionalProperties` and the `required` names folded
    /// into them, for a verdict.
    mutating func checkProperties(_ object: Int, _ properties: PropertiesKeyword) -> Bool {
        let doc = self.doc
        var requiredSeen = RequiredTally()
        var guess = 0
        var key = object + 1
        let hasPatterns = !properties.patterns.isEmpty
        for _ in 0..<doc.count(object) {
            let value = key + 1
            let name = doc.utf8(key)
            var described = false
            if let index = properties.position(utf8: name, guess: guess) {
                described = true
                guess = index + 1
                if properties.isRequired[index] { requiredSeen.see(index, of: properties.names.count) }
                guard properties.schemas[index].with({ check($0, value) }) else { return false }
            }
            // Most schemas have no `patternProperties`: skip setting up the zip per member.
            if hasPatterns {
                for (pattern, schema) in zip(properties.patterns, properties.patternSchemas) where pattern.with({ $0.matches(utf8: name) }) {
                    described = true
                    guard schema.with({ check($0, value) }) else { return false }
                }
            }
            if !described, let additional = properties.additional {
                guard additional.with({ check($0, value) }) else { return false }
            }
            key = doc.end(value)
        }
        return requiredSeen.count == properties.required.count
    }

    /// `items` (and `prefixItems`), for a verdict.
    mutating func checkItems(_ array: Int, _ items: ItemsKeyword) -> Bool {
        let doc = self.doc
        let prefix = items.prefix
        var element = array + 1
        for index in 0..<doc.count(array) {
            if index < prefix.count {
                guard prefix[index].with({ check($0, element) }) else { return false }
            } else if let rest = items.rest {
                guard rest.with({ check($0, element) }) else { return false }
            } else {
                return true
            }
            element = doc.end(element)
        }
        return true
    }
}
