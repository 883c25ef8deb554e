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
        case .enumeration(let values):
            guard values.indices.contains(where: { doc.equals(instance, values[$0]) }) else {
                let shown = values.prefix(8).map { CanonicalJSONWriter(style: .compact).string($0) }.joined(separator: ", ")
                fail(node, "enum", "expected one of \(shown)\(values.count > 8 ? ", …" : ""), found \(Self.found(doc.value(instance)))")
                return false
            }
            return true
        case .constant(let value):
            guard doc.equals(instance, value) else {
                fail(node, "const", "expected \(CanonicalJSONWriter(style: .compact).string(value)), found \(Self.found(doc.value(instance)))")
                return false
            }
            return true
        case .multipleOf, .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum:
            guard doc.kind(instance) == .number else { return true }
            return applyNumber(keyword, node, doc.number(instance))
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
        case .ref(let target, let name):
            return target.with { descend($0, instance, keyword: [name], &annotations) }
        case .dynamicRef(let target, let anchor):
            var resolved = target
            if let anchor {
                // The outermost resource in the dynamic scope that declares the anchor wins.
                for resource in dynamicScope {
                    if let dynamic = resource.dynamicAnchors[anchor] {
                        resolved = dynamic
                        break
                    }
                }
            }
            return resolved.with { descend($0, instance, keyword: ["$dynamicRef"], &annotations) }
        case .allOf(let schemas):
            var valid = true
            for (index, schema) in schemas.enumerated() where !descend(schema, instance, keyword: ["allOf", String(index)], &annotations) {
                valid = false
                if !collecting { return false }
            }
            return valid
        case .anyOf(let schemas):
            return applyAnyOf(schemas, node, instance, &annotations)
        case .oneOf(let schemas):
            return applyOneOf(schemas, node, instance, &annotations)
        case .not(let schema):
            var ignored: Annotations? = nil
            guard !quietly(schema, instance, &ignored) else {
                fail(node, "not", "expected not to match the schema in 'not', found \(Self.found(doc.value(instance))) matching it")
                return false
            }
            return true
        case .conditional(let condition, let then, let otherwise):
            if then == nil && otherwise == nil && annotations == nil { return true }
            var conditionAnnotations: Annotations? = annotations != nil ? Annotations() : nil
            if quietly(condition, instance, &conditionAnnotations) {
                if let conditionAnnotations { annotations?.merge(conditionAnnotations) }
                guard let then else { return true }
                return descend(then, instance, keyword: ["then"], &annotations)
            }
            guard let otherwise else { return true }
            return descend(otherwise, instance, keyword: ["else"], &annotations)
        }
    }

    private mutating func applyAnyOf(_ schemas: [SchemaNode], _ node: SchemaNode, _ instance: Int, _ annotations: inout Annotations?) -> Bool {
        var matched = false
        for schema in schemas {
            if quietly(schema, instance, &annotations) {
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
                _ = descend(schema, instance, keyword: ["anyOf", String(index)], &ignored)
            }
        }
        return false
    }

    private mutating func applyOneOf(_ schemas: [SchemaNode], _ node: SchemaNode, _ instance: Int, _ annotations: inout Annotations?) -> Bool {
        var matches: [Int] = []
        var matchedAnnotations: Annotations? = nil
        for (index, schema) in schemas.enumerated() {
            var branch: Annotations? = annotations != nil ? Annotations() : nil
            if quietly(schema, instance, &branch) {
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
                _ = descend(schema, instance, keyword: ["oneOf", String(index)], &ignored)
            }
        } else {
            let which = matches.map(String.init).joined(separator: " and ")
            fail(node, "oneOf", "expected to match exactly one of the \(schemas.count) schemas in 'oneOf', matched \(matches.count) (\(which))")
        }
        return false
    }

    private mutating func applyNumber(_ keyword: Keyword, _ node: SchemaNode, _ number: JSONNumber) -> Bool {
        switch keyword {
        case .multipleOf(let divisor):
            guard NumberArithmetic.isMultiple(number, of: divisor) else {
                fail(node, "multipleOf", "expected a multiple of \(divisor), found \(number)")
                return false
            }
        case .maximum(let limit):
            guard number <= limit else {
                fail(node, "maximum", "expected a number <= \(limit), found \(number)")
                return false
            }
        case .exclusiveMaximum(let limit):
            guard number < limit else {
                fail(node, "exclusiveMaximum", "expected a number < \(limit), found \(number)")
                return false
            }
        case .minimum(let limit):
            guard number >= limit else {
                fail(node, "minimum", "expected a number >= \(limit), found \(number)")
                return false
            }
        case .exclusiveMinimum(let limit):
            guard number > limit else {
                fail(node, "exclusiveMinimum", "expected a number > \(limit), found \(number)")
                return false
            }
        default:
            break
        }
        return true
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
            guard asserted || assertsFormats, let valid = Self.checkFormat(utf8, format), !valid else { return true }
            fail(node, "format", "expected a valid \(format), found \(Self.found(.string(String(decoding: utf8, as: UTF8.self))))")
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

    /// True or false for formats the validator knows, nil for others (which are never asserted).
    static func checkFormat(_ utf8: UnsafeBufferPointer<UInt8>, _ format: String) -> Bool? {
        FormatChecker.isValid(utf8: utf8, format: format)
    }
}
