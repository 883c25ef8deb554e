import ContractJSON

extension Evaluator {
    /// Applies one keyword; false when the instance fails it.
    mutating func apply(_ keyword: Keyword, _ node: SchemaNode, _ instance: Int, _ annotations: inout Annotations?) -> Bool {
        let doc = self.doc  // a local copy, so closures reading it do not overlap mutations of self
        switch keyword {
        case .type(let types):
            guard doc.matches(types, instance) else {
                fail(node, "type", "expected \(types.names), found \(Self.found(doc.value(instance)))")
                return false
            }
            return true
        case .enumeration(let keyword):
            guard keyword.with({ $0.contains(instance, in: doc) }) else {
                let values = keyword.object.values
                let shown = values.prefix(8).map { CanonicalJSONWriter(style: .compact).string($0) }.joined(separator: ", ")
                fail(node, "enum", "expected one of \(shown)\(values.count > 8 ? ", …" : ""), found \(Self.found(doc.value(instance)))")
                return false
            }
            return true
        case .constant(let boxed):
            guard boxed.with({ doc.equals(instance, $0.value) }) else {
                let value = boxed.object.value
                fail(node, "const", "expected \(CanonicalJSONWriter(style: .compact).string(value)), found \(Self.found(doc.value(instance)))")
                return false
            }
            return true
        case .multipleOf, .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum:
            guard doc.kind(instance) == .number else { return true }
            return applyNumber(keyword, node, instance)
        case .maxLength, .minLength, .pattern, .format, .content:
            guard doc.kind(instance) == .string else { return true }
            return applyString(keyword, node, doc.utf8(instance))
        case .maxItems, .minItems, .uniqueItems, .items, .contains, .unevaluatedItems:
            guard doc.kind(instance) == .array else { return true }
            return applyArray(keyword, node, instance, &annotations)
        case .maxProperties, .minProperties, .required, .dependentRequired, .properties, .propertyNames, .dependentSchemas,
            .unevaluatedProperties:
            guard doc.kind(instance) == .object else { return true }
            return applyObject(keyword, node, instance, &annotations)
        case .ref(let target):
            if isLean && annotations == nil { return target.with { check($0, instance) } }
            return target.with { descend($0, instance, keyword: ["$ref"], &annotations) }
        case .dynamicRef(let target, let anchor):
            var resolved = target
            if let anchor = anchor?.object.value {
                // The outermost resource in the dynamic scope that declares the anchor wins.
                for resource in dynamicScope {
                    if let dynamic = resource.dynamicAnchors[anchor] {
                        resolved = dynamic
                        break
                    }
                }
            }
            return resolved.with { descend($0, instance, keyword: ["$dynamicRef"], &annotations) }
        case .allOf(let list):
            return list.with { applyAllOf($0.value, instance, &annotations) }
        case .anyOf(let list):
            return list.with { applyAnyOf($0.value, node, instance, &annotations) }
        case .oneOf(let list):
            return list.with { applyOneOf($0.value, node, instance, &annotations) }
        case .not(let schema):
            var ignored: Annotations? = nil
            guard !schema.with({ quietly($0, instance, &ignored) }) else {
                fail(node, "not", "expected not to match the schema in 'not', found \(Self.found(doc.value(instance))) matching it")
                return false
            }
            return true
        case .conditional(let condition, let then, let otherwise):
            if then == nil && otherwise == nil && annotations == nil { return true }
            var conditionAnnotations: Annotations? = annotations != nil ? Annotations() : nil
            if condition.with({ quietly($0, instance, &conditionAnnotations) }) {
                if let conditionAnnotations { annotations?.merge(conditionAnnotations) }
                guard let then else { return true }
                return then.with { descend($0, instance, keyword: ["then"], &annotations) }
            }
            guard let otherwise else { return true }
            return otherwise.with { descend($0, instance, keyword: ["else"], &annotations) }
        }
    }

    private mutating func applyAllOf(_ schemas: [Borrowed<SchemaNode>], _ instance: Int, _ annotations: inout Annotations?) -> Bool {
        var valid = true
        for (index, schema) in schemas.enumerated() where !schema.with({ descend($0, instance, keyword: ["allOf", String(index)], &annotations) }) {
            valid = false
            if !collecting { return false }
        }
        return valid
    }

    private mutating func applyAnyOf(_ schemas: [Borrowed<SchemaNode>], _ node: SchemaNode, _ instance: Int, _ annotations: inout Annotations?) -> Bool {
        var matched = false
        for schema in schemas {
            if schema.with({ quietly($0, instance, &annotations) }) {
                matched = true
                // Every matching branch contributes annotations; without them the first match decides.
                if annotations == nil { return true }
            }
        }
        if matched { return true }
        if collecting {
            fail(node, "anyOf", "expected to match at least one of the \(schemas.count) schemas in 'anyOf', matched none")
            var ignored: Annotations? = nil
            for (index, schema) in schemas.enumerated() {
                _ = schema.with { descend($0, instance, keyword: ["anyOf", String(index)], &ignored) }
            }
        }
        return false
    }

    private mutating func applyOneOf(_ schemas: [Borrowed<SchemaNode>], _ node: SchemaNode, _ instance: Int, _ annotations: inout Annotations?) -> Bool {
        var matches: [Int] = []
        var matchedAnnotations: Annotations? = nil
        for (index, schema) in schemas.enumerated() {
            var branch: Annotations? = annotations != nil ? Annotations() : nil
            if schema.with({ quietly($0, instance, &branch) }) {
                matches.append(index)
                matchedAnnotations = branch
                if matches.count > 1 && !collecting { return false }
            }
        }
        if matches.count == 1 {
            if let matchedAnnotations { annotations?.merge(matchedAnnotations) }
            return true
        }
        guard collecting else { return false }
        if matches.isEmpty {
            fail(node, "oneOf", "expected to match exactly one of the \(schemas.count) schemas in 'oneOf', matched none")
            var ignored: Annotations? = nil
            for (index, schema) in schemas.enumerated() {
                _ = schema.with { descend($0, instance, keyword: ["oneOf", String(index)], &ignored) }
            }
        } else {
            let which = matches.map(String.init).joined(separator: " and ")
            fail(node, "oneOf", "expected to match exactly one of the \(schemas.count) schemas in 'oneOf', matched \(matches.count) (\(which))")
        }
        return false
    }

    private mutating func applyNumber(_ keyword: Keyword, _ node: SchemaNode, _ instance: Int) -> Bool {
        let doc = self.doc  // a local copy, so closures reading it do not overlap mutations of self
        switch keyword {
        case .multipleOf(let divisor):
            guard isMultiple(instance, of: divisor) else {
                fail(node, "multipleOf", "expected a multiple of \(divisor.exact.object.value), found \(doc.number(instance))")
                return false
            }
        case .maximum(let limit):
            guard compare(instance, limit) <= 0 else {
                fail(node, "maximum", "expected a number <= \(limit.exact.object.value), found \(doc.number(instance))")
                return false
            }
        case .exclusiveMaximum(let limit):
            guard compare(instance, limit) < 0 else {
                fail(node, "exclusiveMaximum", "expected a number < \(limit.exact.object.value), found \(doc.number(instance))")
                return false
            }
        case .minimum(let limit):
            guard compare(instance, limit) >= 0 else {
                fail(node, "minimum", "expected a number >= \(limit.exact.object.value), found \(doc.number(instance))")
                return false
            }
        case .exclusiveMinimum(let limit):
            guard compare(instance, limit) > 0 else {
                fail(node, "exclusiveMinimum", "expected a number > \(limit.exact.object.value), found \(doc.number(instance))")
                return false
            }
        default:
            break
        }
        return true
    }

    /// -1, 0 or 1 as the number at `instance` is below, at or above `bound`; exact in every case.
    @inline(__always) func compare(_ instance: Int, _ bound: NumberBound) -> Int {
        if let value = doc.scaled(instance), let limit = bound.scaled, let order = JSONNumber.compareScaled(value, limit) {
            return order
        }
        let value = doc.number(instance)
        return bound.exact.with { value < $0.value ? -1 : (value == $0.value ? 0 : 1) }
    }

    func isMultiple(_ instance: Int, of divisor: NumberBound) -> Bool {
        if let value = doc.scaled(instance), let scaledDivisor = divisor.scaled, scaledDivisor.significand != 0 {
            if value.exponent == 0 && scaledDivisor.exponent == 0 { return value.significand % scaledDivisor.significand == 0 }
            // A price and 0.01: both aligned to the smaller power of ten, when that still fits 64 bits.
            let common = min(value.exponent, scaledDivisor.exponent)
            if let a = NumberArithmetic.align(value.significand, by: value.exponent - common),
                let b = NumberArithmetic.align(scaledDivisor.significand, by: scaledDivisor.exponent - common), b != 0
            {
                return a % b == 0
            }
        }
        let value = doc.number(instance)
        return divisor.exact.with { NumberArithmetic.isMultiple(value, of: $0.value) }
    }

    private mutating func applyString(_ keyword: Keyword, _ node: SchemaNode, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        switch keyword {
        case .maxLength(let limit):
            // Length counts code points; the UTF-8 size bounds it from above, which settles most cases.
            guard utf8.count > limit else { return true }
            let length = Self.codePoints(utf8)
            guard length <= limit else {
                fail(node, "maxLength", "expected at most \(Self.count(limit, "character")), found \(length) in \(Self.found(.string(String(decoding: utf8, as: UTF8.self))))")
                return false
            }
        case .minLength(let limit):
            // A code point takes at most four UTF-8 bytes, so a long enough string needs no counting.
            guard utf8.count / 4 < limit else { return true }
            let length = Self.codePoints(utf8)
            guard length >= limit else {
                fail(node, "minLength", "expected at least \(Self.count(limit, "character")), found \(length) in \(Self.found(.string(String(decoding: utf8, as: UTF8.self))))")
                return false
            }
        case .pattern(let pattern):
            guard pattern.with({ $0.matches(utf8: utf8) }) else {
                fail(node, "pattern", "expected a string matching '\(pattern.object.source)', found \(Self.found(.string(String(decoding: utf8, as: UTF8.self))))")
                return false
            }
        case .format(let format, let asserted):
            guard asserted || assertsFormats, !FormatChecker.isValid(utf8: utf8, format: format) else { return true }
            fail(node, "format", "expected a valid \(format.rawValue), found \(Self.found(.string(String(decoding: utf8, as: UTF8.self))))")
            return false
        case .content(let base64, let json):
            let string = String(decoding: utf8, as: UTF8.self)
            var bytes = Array(utf8)
            if base64 {
                guard let decoded = Base64.decode(string) else {
                    fail(node, "contentEncoding", "expected base64, found \(Self.found(.string(string)))")
                    return false
                }
                bytes = decoded
            }
            if json, (try? JSONParser(tracksLocations: false).parse(bytes)) == nil {
                fail(node, "contentMediaType", "expected a JSON document, found \(Self.found(.string(string)))")
                return false
            }
        default:
            break
        }
        return true
    }

    /// Unicode scalars in UTF-8: every byte that does not continue a sequence starts one.
    static func codePoints(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in utf8 where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }
}
