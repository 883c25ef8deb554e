import ContractJSON

extension SchemaCompiler {
    func compileKeywords(_ object: JSONObject, at location: Location, scope: Scope) -> [Keyword] {
        let dialect = scope.dialect
        let isDraft7 = dialect.dialect == .draft7
        func sub(_ tokens: String...) -> SchemaNode? {
            subnode(Location(document: location.document, pointer: JSONPointer(tokens: location.pointer.tokens + tokens)))
        }
        func problem(_ key: String, _ message: String) {
            report("'\(key)' \(message)", at: Location(document: location.document, pointer: location.pointer.appending(key)))
        }

        // Draft 7: a `$ref` replaces every keyword beside it.
        if isDraft7, let reference = object["$ref"]?.stringValue {
            return self.reference(reference, scope: scope, at: location).map { [.ref(borrow($0))] } ?? []
        }

        var first: [Keyword] = []  // cheap checks that fail fast: type, const, enum
        var keywords: [Keyword] = []
        var last: [Keyword] = []  // unevaluated*: they need every sibling's annotations
        var handledItems = false
        var handledProperties = false
        var handledContains = false
        var handledContent = false

        for member in object where dialect.isEnabled(member.key) {
            let key = member.key
            let value = member.value
            switch key {
            case "$ref":
                guard let text = value.stringValue else { problem(key, "must be a string"); continue }
                if let target = reference(text, scope: scope, at: location) { keywords.append(.ref(borrow(target))) }
            case "$dynamicRef" where !isDraft7:
                guard let text = value.stringValue else { problem(key, "must be a string"); continue }
                let absolute = scope.base.resolving(text)
                guard let targetLocation = resolve(absolute, from: Location(document: location.document, pointer: location.pointer.appending(key))),
                    let target = node(at: targetLocation)
                else { continue }
                let fragment = absolute.fragment ?? ""
                let resourceURI = absolute.withoutFragment.description
                let isDynamic = !fragment.isEmpty && !fragment.hasPrefix("/") && dynamicAnchorNames[resourceURI]?.contains(fragment) == true
                if isDynamic { usesDynamicScope = true }
                keywords.append(.dynamicRef(borrow(target), anchor: isDynamic ? borrow(Boxed(fragment)) : nil))
            case "type":
                if let types = typeSet(value) { first.append(.type(types)) } else { problem(key, typeProblem(value)) }
            case "enum":
                if let values = value.arrayValue { first.append(.enumeration(borrow(EnumKeyword(values)))) } else { problem(key, "must be an array") }
            case "const":
                first.append(.constant(borrow(Boxed(value))))
            case "multipleOf":
                if let number = value.numberValue, !number.isNegative, !number.isZero { keywords.append(.multipleOf(NumberBound(scaled: number.scaled, exact: borrow(Boxed(number))))) } else {
                    problem(key, "must be a number greater than 0")
                }
            case "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum":
                guard let number = value.numberValue else { problem(key, "must be a number"); continue }
                let limit = NumberBound(scaled: number.scaled, exact: borrow(Boxed(number)))
                switch key {
                case "maximum": keywords.append(.maximum(limit))
                case "minimum": keywords.append(.minimum(limit))
                case "exclusiveMaximum": keywords.append(.exclusiveMaximum(limit))
                default: keywords.append(.exclusiveMinimum(limit))
                }
            case "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties":
                guard let limit = nonNegativeInteger(value) else { problem(key, "must be a non-negative integer"); continue }
                switch key {
                case "maxLength": keywords.append(.maxLength(limit))
                case "minLength": keywords.append(.minLength(limit))
                case "maxItems": keywords.append(.maxItems(limit))
                case "minItems": keywords.append(.minItems(limit))
                case "maxProperties": keywords.append(.maxProperties(limit))
                default: keywords.append(.minProperties(limit))
                }
            case "pattern":
                guard let text = value.stringValue else { problem(key, "must be a string"); continue }
                do {
                    keywords.append(.pattern(borrow(try CompiledPattern(text))))
                } catch {
                    problem(key, "is not a valid ECMA-262 regular expression: \(error)")
                }
            case "format":
                let asserted = dialect.vocabularies?.contains(DialectInfo.vocabularyPrefix + "format-assertion") == true
                if let format = value.stringValue.flatMap(KnownFormat.init(rawValue:)) { keywords.append(.format(format, asserted: asserted)) }
            case "contentEncoding", "contentMediaType":
                guard isDraft7, !handledContent else { continue }
                handledContent = true
                let base64 = object["contentEncoding"]?.stringValue?.lowercased() == "base64"
                let json = object["contentMediaType"]?.stringValue?.lowercased() == "application/json"
                if base64 || json { keywords.append(.content(base64: base64, json: json)) }
            case "uniqueItems":
                if value.boolValue == true { keywords.append(.uniqueItems) }
            case "required":
                guard let names = value.arrayValue?.compactMap(\.stringValue) else { problem(key, "must be an array of strings"); continue }
                if !names.isEmpty { keywords.append(.required(borrow(Boxed(names)))) }
            case "prefixItems", "items", "additionalItems":
                if key == "prefixItems" && isDraft7 || key == "additionalItems" && !isDraft7 { continue }
                if !handledItems, let items = compileItems(object, isDraft7: isDraft7, sub: sub) {
                    keywords.append(items)
                }
                handledItems = true
            case "contains", "minContains", "maxContains":
                guard !handledContains, key == "contains" || !isDraft7 else { continue }
                handledContains = true
                guard object["contains"] != nil, let schema = sub("contains") else { continue }
                let minimum = isDraft7 ? 1 : object["minContains"].flatMap(nonNegativeInteger) ?? 1
                let maximum = isDraft7 ? nil : object["maxContains"].flatMap(nonNegativeInteger)
                keywords.append(.contains(borrow(schema), min: minimum, max: maximum))
            case "properties", "patternProperties", "additionalProperties":
                guard !handledProperties else { continue }
                handledProperties = true
                if let properties = compileProperties(object, location: location, sub: sub) { keywords.append(properties) }
            case "propertyNames":
                if let schema = sub(key) { keywords.append(.propertyNames(borrow(schema))) }
            case "dependentRequired" where !isDraft7:
                keywords.append(.dependentRequired(borrow(Boxed(dependentRequired(value)))))
            case "dependentSchemas" where !isDraft7:
                let schemas = (value.objectValue?.keys ?? []).compactMap { name in sub(key, name).map { (name, borrow($0)) } }
                keywords.append(.dependentSchemas(borrow(Boxed(schemas)), isDraft7Dependencies: false))
            case "dependencies":
                // Draft 7's combined form: arrays are required properties, anything else a schema.
                guard let map = value.objectValue else { continue }
                let required = map.members.filter { $0.value.arrayValue != nil }
                if !required.isEmpty {
                    keywords.append(.dependentRequired(borrow(Boxed(dependentRequired(.object(JSONObject(required)))))))
                }
                let schemas = map.members.filter { $0.value.arrayValue == nil }.compactMap { entry in sub(key, entry.key).map { (entry.key, borrow($0)) } }
                if !schemas.isEmpty { keywords.append(.dependentSchemas(borrow(Boxed(schemas)), isDraft7Dependencies: true)) }
            case "allOf", "anyOf", "oneOf":
                guard let elements = value.arrayValue, !elements.isEmpty else { problem(key, "must be a non-empty array of schemas"); continue }
                let schemas = borrow(SchemaList(elements.indices.compactMap { sub(key, String($0)).map(borrow) }))
                switch key {
                case "allOf": keywords.append(.allOf(schemas))
                case "anyOf": keywords.append(.anyOf(schemas))
                default: keywords.append(.oneOf(schemas))
                }
            case "not":
                if let schema = sub(key) { keywords.append(.not(borrow(schema))) }
            case "if":
                if let condition = sub("if") {
                    let then = object["then"] != nil && dialect.isEnabled("then") ? sub("then") : nil
                    let otherwise = object["else"] != nil && dialect.isEnabled("else") ? sub("else") : nil
                    // Kept even without `then` and `else`: what `if` evaluates counts for `unevaluated*`.
                    keywords.append(.conditional(if: borrow(condition), then: then.map(borrow), else: otherwise.map(borrow)))
                }
            case "unevaluatedItems" where !isDraft7:
                if let schema = sub(key) { last.append(.unevaluatedItems(borrow(schema))) }
            case "unevaluatedProperties" where !isDraft7:
                if let schema = sub(key) { last.append(.unevaluatedProperties(borrow(schema))) }
            default:
                // Annotations ($comment, title, default, examples…), identifiers and unknown keywords.
                continue
            }
        }
        return mergingRequired(into: first + keywords + last)
    }

    /// Folds `required` into `properties` when every required name is a declared property.
    private func mergingRequired(into keywords: [Keyword]) -> [Keyword] {
        guard let requiredIndex = keywords.firstIndex(where: { if case .required = $0 { true } else { false } }),
            let propertiesIndex = keywords.firstIndex(where: { if case .properties = $0 { true } else { false } }),
            case .required(let required) = keywords[requiredIndex], case .properties(let borrowed) = keywords[propertiesIndex],
            case let names = required.object.value,
            case let properties = borrowed.object,
            properties.required.isEmpty, names.allSatisfy({ properties.position(named: $0) != nil }),
            Set(names.map { Array($0.utf8) }).count == names.count
        else { return keywords }
        var merged = keywords
        merged[propertiesIndex] = .properties(borrow(properties.merging(required: names)))
        merged.remove(at: requiredIndex)
        return merged
    }

    func reference(_ text: String, scope: Scope, at location: Location) -> SchemaNode? {
        let absolute = scope.base.resolving(text)
        let referrer = Location(document: location.document, pointer: location.pointer.appending("$ref"))
        guard let target = resolve(absolute, from: referrer) else { return nil }
        return node(at: target)
    }

    private func compileItems(_ object: JSONObject, isDraft7: Bool, sub: (String...) -> SchemaNode?) -> Keyword? {
        if isDraft7 {
            if let elements = object["items"]?.arrayValue {
                let prefix = elements.indices.compactMap { sub("items", String($0)).map(borrow) }
                let rest = object["additionalItems"] != nil ? sub("additionalItems").map(borrow) : nil
                return .items(borrow(ItemsKeyword(prefix: prefix, rest: rest, prefixKeyword: "items", restKeyword: "additionalItems")))
            }
            guard object["items"] != nil else { return nil }
            return .items(borrow(ItemsKeyword(prefix: [], rest: sub("items").map(borrow), prefixKeyword: "items", restKeyword: "items")))
        }
        let prefix = (object["prefixItems"]?.arrayValue ?? []).indices.compactMap { sub("prefixItems", String($0)).map(borrow) }
        let rest = object["items"] != nil ? sub("items").map(borrow) : nil
        guard !prefix.isEmpty || rest != nil else { return nil }
        return .items(borrow(ItemsKeyword(prefix: prefix, rest: rest, prefixKeyword: "prefixItems", restKeyword: "items")))
    }

    private func compileProperties(_ object: JSONObject, location: Location, sub: (String...) -> SchemaNode?) -> Keyword? {
        var named: [(name: String, schema: Borrowed<SchemaNode>)] = []
        for name in object["properties"]?.objectValue?.keys ?? [] {
            if let schema = sub("properties", name) { named.append((name, borrow(schema))) }
        }
        var patterns: [(pattern: CompiledPattern, schema: Borrowed<SchemaNode>)] = []
        for name in object["patternProperties"]?.objectValue?.keys ?? [] {
            do {
                if let schema = sub("patternProperties", name) { patterns.append((try CompiledPattern(name), borrow(schema))) }
            } catch {
                report("'\(name)' is not a valid ECMA-262 regular expression: \(error)",
                    at: Location(document: location.document, pointer: location.pointer.appending("patternProperties").appending(name)))
            }
        }
        let additional = object["additionalProperties"] != nil ? sub("additionalProperties").map(borrow) : nil
        return .properties(borrow(PropertiesKeyword(named: named, patterns: patterns, additional: additional)))
    }

    private func typeSet(_ value: JSONValue) -> JSONTypeSet? {
        if let name = value.stringValue { return JSONTypeSet(name: name) }
        guard let names = value.arrayValue else { return nil }
        var set: JSONTypeSet = []
        for name in names {
            guard let type = name.stringValue.flatMap(JSONTypeSet.init(name:)) else { return nil }
            set.insert(type)
        }
        return set
    }

    /// Names the offending type name and the nearest valid one.
    private func typeProblem(_ value: JSONValue) -> String {
        let names = ["array", "boolean", "integer", "null", "number", "object", "string"]
        let expected = "must be one of \(names.joined(separator: ", ")) or an array of them"
        let bad = value.stringValue ?? value.arrayValue?.compactMap(\.stringValue).first { JSONTypeSet(name: $0) == nil }
        guard let bad else { return "\(expected), found \(value.typeName)" }
        let close = suggestion(for: bad, among: names)
        return "\(expected), found '\(bad)'" + (close.map { ", did you mean '\($0)'?" } ?? "")
    }

    private func nonNegativeInteger(_ value: JSONValue) -> Int? {
        guard let number = value.numberValue, number.isInteger, !number.isNegative else { return nil }
        return number.intValue ?? Int.max
    }

    private func dependentRequired(_ value: JSONValue) -> [(property: String, required: [String])] {
        (value.objectValue?.members ?? []).map { ($0.key, $0.value.arrayValue?.compactMap(\.stringValue) ?? []) }
    }
}
