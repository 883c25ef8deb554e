/// What changed in a schema, as a rule: its id (the rule of a change is the side and the concept,
/// `response-type-widened`), the way it moves the schema (``Effect``) and a line for
/// docs/diff-rules.md. The severity follows from the side (``MessageSide/severity(of:)``) except
/// where clients are known to cope, listed in ``severity(on:)``.
struct SchemaConcept: Sendable, Hashable {
    let id: String
    let effect: Effect
    let summary: String

    func rule(on side: MessageSide) -> String { "\(side.rawValue)-\(id)" }

    /// The direction rule, with the few exceptions clients are known to tolerate or that the
    /// trees cannot decide.
    func severity(on side: MessageSide) -> Change.Severity {
        switch (side, id) {
        // A new enum value: clients with a default branch read it; those decoding into a closed
        // enum fail. The trees cannot tell which.
        case (.response, "enum-value-added"): .warning
        // New members: clients that ignore unknown members read them; strict decoders fail.
        case (.response, "additional-properties-opened"), (.response, "property-added-to-closed-object"): .warning
        // A new optional request property narrows only what clients sending that member with
        // another value send; they are met by `request-body-rejected`, evidence in hand.
        case (.request, "property-added"), (.parameter, "property-added"): .safe
        default: side.severity(of: effect)
        }
    }

    // MARK: The catalogue

    static let typeWidened = SchemaConcept(id: "type-widened", effect: .widened, summary: "the type allows more (a type added, `integer` to `number`, `type` removed)")
    static let typeNarrowed = SchemaConcept(id: "type-narrowed", effect: .narrowed, summary: "the type allows less (a type taken out, `number` to `integer`, `type` added)")
    static let typeChanged = SchemaConcept(id: "type-changed", effect: .changed, summary: "the type is another (`number` to `string`)")
    static let becameNullable = SchemaConcept(id: "became-nullable", effect: .widened, summary: "`null` added to the types")
    static let becameNotNullable = SchemaConcept(id: "became-not-nullable", effect: .narrowed, summary: "`null` taken out of the types")
    static let formatAdded = SchemaConcept(id: "format-added", effect: .narrowed, summary: "a `format` where there was none")
    static let formatRemoved = SchemaConcept(id: "format-removed", effect: .widened, summary: "the `format` taken out")
    static let formatWidened = SchemaConcept(id: "format-widened", effect: .widened, summary: "a wider format (`int32` to `int64`, `float` to `double`)")
    static let formatNarrowed = SchemaConcept(id: "format-narrowed", effect: .narrowed, summary: "a narrower format (`int64` to `int32`, `double` to `float`)")
    static let formatChanged = SchemaConcept(id: "format-changed", effect: .changed, summary: "another format (`date` to `date-time`, `uuid` to `uri`)")
    static let enumValueAdded = SchemaConcept(id: "enum-value-added", effect: .widened, summary: "a value added to `enum`")
    static let enumValueRemoved = SchemaConcept(id: "enum-value-removed", effect: .narrowed, summary: "a value taken out of `enum`")
    static let enumAdded = SchemaConcept(id: "enum-added", effect: .narrowed, summary: "an `enum` where any value was valid")
    static let enumRemoved = SchemaConcept(id: "enum-removed", effect: .widened, summary: "the `enum` taken out")
    static let constAdded = SchemaConcept(id: "const-added", effect: .narrowed, summary: "a `const` where there was none")
    static let constRemoved = SchemaConcept(id: "const-removed", effect: .widened, summary: "the `const` taken out")
    static let constChanged = SchemaConcept(id: "const-changed", effect: .changed, summary: "another `const` value")
    static let multipleOfAdded = SchemaConcept(id: "multiple-of-added", effect: .narrowed, summary: "a `multipleOf` where there was none")
    static let multipleOfRemoved = SchemaConcept(id: "multiple-of-removed", effect: .widened, summary: "the `multipleOf` taken out")
    static let multipleOfWidened = SchemaConcept(id: "multiple-of-widened", effect: .widened, summary: "a `multipleOf` that divides the old one (`0.02` to `0.01`)")
    static let multipleOfNarrowed = SchemaConcept(id: "multiple-of-narrowed", effect: .narrowed, summary: "a `multipleOf` the old one divides (`0.01` to `0.02`)")
    static let multipleOfChanged = SchemaConcept(id: "multiple-of-changed", effect: .changed, summary: "a `multipleOf` neither divides")
    static let uniqueItemsAdded = SchemaConcept(id: "unique-items-added", effect: .narrowed, summary: "`uniqueItems: true` where there was none")
    static let uniqueItemsRemoved = SchemaConcept(id: "unique-items-removed", effect: .widened, summary: "`uniqueItems: true` taken out")
    static let patternAdded = SchemaConcept(id: "pattern-added", effect: .narrowed, summary: "a `pattern` where there was none")
    static let patternRemoved = SchemaConcept(id: "pattern-removed", effect: .widened, summary: "the `pattern` taken out")
    static let patternChanged = SchemaConcept(id: "pattern-changed", effect: .incomparable, summary: "another `pattern` (regular expressions cannot be compared by their text)")
    static let requiredPropertyAdded = SchemaConcept(id: "required-property-added", effect: .narrowed, summary: "a new property that is required")
    static let propertyBecameRequired = SchemaConcept(id: "property-became-required", effect: .narrowed, summary: "a property made required")
    static let propertyBecameOptional = SchemaConcept(id: "property-became-optional", effect: .widened, summary: "a required property made optional")
    static let requiredPropertyRemoved = SchemaConcept(id: "required-property-removed", effect: .widened, summary: "a required property taken out")
    /// On an open object the member was allowed already, with any value: a schema for it narrows.
    static let propertyAdded = SchemaConcept(id: "property-added", effect: .narrowed, summary: "a new optional property (on an object that allowed other members)")
    static let propertyAddedToClosedObject = SchemaConcept(
        id: "property-added-to-closed-object", effect: .widened, summary: "a new optional property where `additionalProperties: false` allowed no other")
    static let propertyRemoved = SchemaConcept(id: "property-removed", effect: .incomparable, summary: "an optional property taken out (on a request, clients may still send it; on a response, clients may still read it)")
    static let propertyRemovedFromClosedObject = SchemaConcept(
        id: "property-removed-from-closed-object", effect: .narrowed, summary: "a property taken out of an object with `additionalProperties: false`: a value holding it is now invalid")
    static let additionalPropertiesOpened = SchemaConcept(id: "additional-properties-opened", effect: .widened, summary: "`additionalProperties: false` taken out: other members are valid")
    static let additionalPropertiesClosed = SchemaConcept(id: "additional-properties-closed", effect: .narrowed, summary: "`additionalProperties: false` added: other members are invalid")
    static let becameFalse = SchemaConcept(id: "schema-became-false", effect: .narrowed, summary: "the schema is `false`: no value is valid")
    static let becameTrue = SchemaConcept(id: "schema-became-true", effect: .widened, summary: "the schema is `true` or `{}`: every value is valid")

    /// `minimum-raised` and its kin for every bound: raising a lower bound narrows, raising an
    /// upper one widens; adding either narrows, removing either widens.
    static func bound(_ keyword: BoundKeyword, _ action: BoundAction) -> SchemaConcept {
        let effect: Effect
        switch action {
        case .added: effect = .narrowed
        case .removed: effect = .widened
        case .raised: effect = keyword.isLower ? .narrowed : .widened
        case .lowered: effect = keyword.isLower ? .widened : .narrowed
        }
        return SchemaConcept(id: "\(keyword.ruleName)-\(action.rawValue)", effect: effect, summary: "`\(keyword.rawValue)` \(action.rawValue)")
    }

    /// `one-of-branch-added` and its kin: a `oneOf` or `anyOf` branch more allows more; an
    /// `allOf` part more requires more.
    static func branches(_ keyword: CombinationKeyword, added: Bool) -> SchemaConcept {
        let widens = keyword == .allOf ? !added : added
        let noun = keyword == .allOf ? "part" : "branch"
        return SchemaConcept(
            id: "\(keyword.ruleName)-\(noun)-\(added ? "added" : "removed")", effect: widens ? .widened : .narrowed,
            summary: "a `\(keyword.rawValue)` \(noun) \(added ? "added" : "taken out")")
    }

    /// A keyword this comparison does not take apart (`not`, `if`, `patternProperties`…):
    /// added, it can only narrow; removed, only widen; changed, it cannot tell.
    static let keywordAdded = SchemaConcept(id: "keyword-added", effect: .narrowed, summary: "a validation keyword added (`not`, `if`, `patternProperties`, `dependentRequired`…)")
    static let keywordRemoved = SchemaConcept(id: "keyword-removed", effect: .widened, summary: "a validation keyword taken out")
    static let keywordChanged = SchemaConcept(id: "keyword-changed", effect: .incomparable, summary: "a validation keyword this comparison does not take apart, changed")

    /// Every concept, for docs/diff-rules.md and its test.
    static var all: [SchemaConcept] {
        var all = [
            typeWidened, typeNarrowed, typeChanged, becameNullable, becameNotNullable, formatAdded, formatRemoved, formatWidened, formatNarrowed,
            formatChanged, enumValueAdded, enumValueRemoved, enumAdded, enumRemoved, constAdded, constRemoved, constChanged, multipleOfAdded,
            multipleOfRemoved, multipleOfWidened, multipleOfNarrowed, multipleOfChanged, uniqueItemsAdded, uniqueItemsRemoved, patternAdded,
            patternRemoved, patternChanged, requiredPropertyAdded, propertyBecameRequired, propertyBecameOptional, requiredPropertyRemoved,
            propertyAdded, propertyAddedToClosedObject, propertyRemoved, propertyRemovedFromClosedObject, additionalPropertiesOpened,
            additionalPropertiesClosed, becameFalse, becameTrue, keywordAdded, keywordRemoved, keywordChanged,
        ]
        for keyword in BoundKeyword.allCases {
            for action in BoundAction.allCases { all.append(bound(keyword, action)) }
        }
        for keyword in CombinationKeyword.allCases {
            all.append(branches(keyword, added: true))
            all.append(branches(keyword, added: false))
            all.append(SchemaConcept(id: "\(keyword.ruleName)-added", effect: .narrowed, summary: "a `\(keyword.rawValue)` where there was none"))
            all.append(SchemaConcept(id: "\(keyword.ruleName)-removed", effect: .widened, summary: "the `\(keyword.rawValue)` taken out"))
        }
        return all
    }
}

enum BoundKeyword: String, CaseIterable {
    case minimum, exclusiveMinimum, minLength, minItems, minProperties, minContains
    case maximum, exclusiveMaximum, maxLength, maxItems, maxProperties, maxContains

    var isLower: Bool { rawValue.hasPrefix("min") || rawValue == "exclusiveMinimum" }

    /// The kinds of value the keyword constrains.
    var kinds: Set<String> {
        switch self {
        case .minimum, .exclusiveMinimum, .maximum, .exclusiveMaximum: Flat.numberKinds
        case .minLength, .maxLength: ["string"]
        case .minItems, .maxItems, .minContains, .maxContains: ["array"]
        case .minProperties, .maxProperties: ["object"]
        }
    }
    var ruleName: String { kebab(rawValue) }
}

enum BoundAction: String, CaseIterable {
    case added, removed, raised, lowered
}

enum CombinationKeyword: String, CaseIterable {
    case oneOf, anyOf, allOf

    var ruleName: String { kebab(rawValue) }
}

/// `exclusiveMinimum` as `exclusive-minimum`.
func kebab(_ name: String) -> String {
    var result = ""
    for character in name {
        if character.isUppercase {
            result += "-" + character.lowercased()
        } else {
            result.append(character)
        }
    }
    return result
}
