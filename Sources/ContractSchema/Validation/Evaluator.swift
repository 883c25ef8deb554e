import ContractJSON

/// Applies a compiled schema to one instance. One evaluator per validation, so compiled schemas
/// are shared freely across threads. In quick mode it stops at the first failure and keeps no
/// paths; in collecting mode it records every error with its locations.
struct Evaluator {
    /// The instance, laid out flat; values are addressed by their index in it.
    let doc: TapeView
    let assertsFormats: Bool
    /// Record errors (and maintain paths); false while only a verdict is needed.
    var collecting: Bool
    var errors: [ValidationError] = []
    /// Errors beyond this many are counted, not kept: a body with a million wrong items must not
    /// build a million messages.
    var limit = Int.max
    /// Every error found, kept or not.
    var total = 0
    var instancePath: [String] = []
    var keywordPath: [String] = []
    /// The resources entered on the way here, outermost first, for `$dynamicRef`.
    var dynamicScope: [SchemaResourceInfo] = []
    /// How many schemas are being applied, nested; bounded so no schema or value can exhaust the stack.
    var depth = 0
    static let maxDepth = 1_000

    /// False when no schema in the graph resolves a `$dynamicRef` through the dynamic scope: then
    /// the scope is never read, so it is not kept.
    let tracksDynamicScope: Bool

    init(doc: TapeView, assertsFormats: Bool, collecting: Bool, tracksDynamicScope: Bool = true) {
        self.doc = doc
        self.assertsFormats = assertsFormats
        self.collecting = collecting
        self.tracksDynamicScope = tracksDynamicScope
    }

    // MARK: Schemas

    mutating func validate(_ node: SchemaNode, _ instance: Int, _ annotations: inout Annotations?) -> Bool {
        // Most schemas are applied for a verdict alone, with no annotations asked for and no
        // dynamic scope to keep: that path skips all three.
        if isLean && annotations == nil { return check(node, instance) }
        let doc = self.doc  // a local copy, so closures reading it do not overlap mutations of self
        switch node.body {
        case .alwaysValid:
            return true
        case .alwaysInvalid:
            fail(node, "false", "no value is allowed here, found \(Self.found(doc.value(instance)))")
            return false
        case .keywords(let keywords):
            guard depth < Self.maxDepth else {
                fail(node, "$ref", "the schema nests deeper than \(Self.maxDepth) levels here; is it recursive without end?")
                return false
            }
            depth += 1
            defer { depth -= 1 }
            let entersResource = dynamicScope.last !== node.resource
            if entersResource { dynamicScope.append(node.resource) }
            defer { if entersResource { dynamicScope.removeLast() } }
            var local: Annotations? = (annotations != nil || node.needsAnnotations) ? Annotations() : nil
            var valid = true
            for keyword in keywords where !apply(keyword, node, instance, &local) {
                valid = false
                if !collecting { return false }
            }
            if valid, let local { annotations?.merge(local) }
            return valid
        }
    }

    /// The verdict of `node` alone: no error paths, no dynamic scope, no annotations passed up.
    /// A schema that is only a `$ref` is skipped for the schema it refers to.
    mutating func check(_ node: SchemaNode, _ instance: Int) -> Bool {
        if let target = node.referenceTarget { return target.with { checkKeywords($0, instance) } }
        return checkKeywords(node, instance)
    }

    @inline(__always) private mutating func checkKeywords(_ node: SchemaNode, _ instance: Int) -> Bool {
        switch node.body {
        case .alwaysValid:
            return true
        case .alwaysInvalid:
            return false
        case .keywords(let keywords):
            guard depth < Self.maxDepth else { return false }
            depth += 1
            defer { depth -= 1 }
            if node.needsAnnotations {
                // A schema with `unevaluated*` still needs its subschemas' annotations.
                var local: Annotations? = Annotations()
                for keyword in keywords where !apply(keyword, node, instance, &local) { return false }
                return true
            }
            for keyword in keywords where !checkKeyword(keyword, node, instance) { return false }
            return true
        }
    }

    /// Validates without recording errors: for `not`, `if`, `contains` and counting branches.
    mutating func quietly(_ node: SchemaNode, _ instance: Int, _ annotations: inout Annotations?) -> Bool {
        let saved = collecting
        collecting = false
        defer { collecting = saved }
        return validate(node, instance, &annotations)
    }

    /// Validates a subschema reached through `tokens` of keyword path (and `instanceToken` of instance path).
    /// The path tokens are autoclosures: building them costs an allocation, and quick mode never needs them.
    mutating func descend(
        _ node: SchemaNode, _ instance: Int, keyword tokens: @autoclosure () -> [String],
        instance instanceToken: @autoclosure () -> String? = nil, _ annotations: inout Annotations?
    ) -> Bool {
        guard collecting else { return validate(node, instance, &annotations) }
        let keywordTokens = tokens()
        let token = instanceToken()
        keywordPath += keywordTokens
        if let token { instancePath.append(token) }
        defer {
            keywordPath.removeLast(keywordTokens.count)
            if token != nil { instancePath.removeLast() }
        }
        return validate(node, instance, &annotations)
    }

    mutating func fail(_ node: SchemaNode, _ keyword: String, _ message: @autoclosure () -> String, member: String? = nil) {
        guard collecting else { return }
        total += 1
        guard errors.count < limit else { return }
        let escaped = keyword.replacing("~", with: "~0").replacing("/", with: "~1")
        let absolute = node.absoluteLocation + "/" + escaped
        errors.append(ValidationError(
            instanceLocation: JSONPointer(tokens: instancePath), keywordLocation: JSONPointer(tokens: keywordPath + [keyword]),
            absoluteKeywordLocation: absolute, keyword: keyword, message: message(), unexpectedMember: member))
    }

    /// `1 item`, `3 items`.
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    /// `string '12,00'`, `integer 3`, `object`: how a found value appears in messages.
    static func found(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "boolean \(bool)"
        case .number(let number): "\(number.isInteger ? "integer" : "number") \(MessageText.clipped(number))"
        case .string(let string): "string '\(MessageText.clipped(string))'"
        case .array(let elements): "array of \(elements.count)"
        case .object: "object"
        }
    }
}
