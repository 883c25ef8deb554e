import ContractJSON

/// One way an instance fails its schema, located in both: where in the instance, and which
/// keyword (by evaluation path through references, and by absolute location).
public struct ValidationError: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance, e.g. `/data/3/price`.
    public var instanceLocation: JSONPointer
    /// The path of keywords followed from the root schema, `$ref`s included: `/properties/data/items/$ref/type`.
    public var keywordLocation: JSONPointer
    /// The keyword's absolute place: `https://example.com/product.json#/$defs/Money/properties/amount/type`.
    public var absoluteKeywordLocation: String
    /// The failing keyword (`type`, `required`, `additionalProperties`…).
    public var keyword: String
    /// What was expected and what was found: `expected number, found string '12,00'`.
    public var message: String
    /// For `additionalProperties` and `unevaluatedProperties`, the member no schema allows: the
    /// error sits at the object (as verify's findings and their fingerprints have it), and a
    /// reader that points at the member itself (`/nme`) appends this.
    public var unexpectedMember: String?

    public init(
        instanceLocation: JSONPointer, keywordLocation: JSONPointer, absoluteKeywordLocation: String, keyword: String, message: String,
        unexpectedMember: String? = nil
    ) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.absoluteKeywordLocation = absoluteKeywordLocation
        self.keyword = keyword
        self.message = message
        self.unexpectedMember = unexpectedMember
    }

    /// `/data/3/price: expected number, found string '12,00' (at …#/$defs/Money/properties/amount/type)`.
    public var description: String {
        let instance = instanceLocation.isRoot ? "(root)" : instanceLocation.description
        return "\(instance): \(message) (at \(absoluteKeywordLocation))"
    }
}

/// The outcome of validating one instance: valid, or every error found.
public struct ValidationResult: Sendable, Hashable {
    public var errors: [ValidationError]
    /// Errors found beyond the limit asked for, counted but not kept.
    public var omitted = 0
    public var isValid: Bool { errors.isEmpty && omitted == 0 }

    public init(errors: [ValidationError], omitted: Int = 0) {
        self.errors = errors
        self.omitted = omitted
    }
}

extension [ValidationError] {
    /// One error per instance location, the most specific: not the `anyOf` summary above it, and
    /// no summary at all when a deeper location explains it. For messages a person reads.
    public func mostSpecific() -> [ValidationError] {
        let summaries: Set<String> = ["anyOf", "oneOf", "allOf", "false"]
        var kept: [JSONPointer: ValidationError] = [:]
        var order: [JSONPointer] = []
        for error in self {
            guard let existing = kept[error.instanceLocation] else {
                kept[error.instanceLocation] = error
                order.append(error.instanceLocation)
                continue
            }
            if summaries.contains(existing.keyword), !summaries.contains(error.keyword) {
                kept[error.instanceLocation] = error
            }
        }
        return order.compactMap { kept[$0] }.filter { error in
            !(["anyOf", "oneOf"].contains(error.keyword)
                && order.contains { $0.tokens.count > error.instanceLocation.tokens.count && $0.tokens.starts(with: error.instanceLocation.tokens) })
        }
    }
}
