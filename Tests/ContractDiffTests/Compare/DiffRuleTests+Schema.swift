import Testing

@testable import ContractDiff

extension DiffRuleTests {
    /// Each schema concept from one pair of schemas, on both sides: the pair as a `GET` case's
    /// response `schema` reports `response-<concept>`, and as a `POST` case's request `schema`
    /// (no body) `request-<concept>`, each with the catalogue's severity for that side.
    @Test(arguments: SchemaPair.all, MessageSide.allCases)
    func schemaRule(_ pair: SchemaPair, on side: MessageSide) throws {
        let result = try DiffTrees.diff(DiffTrees.schemaTree(pair.old, on: side), DiffTrees.schemaTree(pair.new, on: side))
        DiffTrees.expect(
            result, reports: pair.rule(on: side), allowing: Set(pair.alsoBreaking.map { "\(side.rawValue)-\($0)" }))
    }
}

/// A schema concept and a minimal pair of schemas that shows it. A concept may have more than
/// one pair (`variant` tells them apart) where the catalogue names more than one way to it.
struct SchemaPair: Sendable, CustomTestStringConvertible {
    let concept: String
    let old: String
    let new: String
    var variant: String?
    /// Concepts the pair also shows, breaking on a side, because its change is also theirs.
    var alsoBreaking: Set<String> = []
    /// Why the comparer does not report the concept on a side as the catalogue says (a bug).

    init(_ concept: String, _ old: String, _ new: String, variant: String? = nil, alsoBreaking: Set<String> = []) {
        self.concept = concept
        self.old = old
        self.new = new
        self.variant = variant
        self.alsoBreaking = alsoBreaking
    }

    func rule(on side: MessageSide) -> String { "\(side.rawValue)-\(concept)" }

    var testDescription: String { "\(concept)\(variant.map { " (\($0))" } ?? ""): \(old) to \(new)" }

    static let all: [SchemaPair] = types + formats + values + numbers + strings + objects + whole + opaque + bounds + combinations

    static let types: [SchemaPair] = [
        SchemaPair("type-widened", #"{"type":"integer"}"#, #"{"type":["integer","string"]}"#),
        SchemaPair("type-narrowed", #"{"type":["integer","string"]}"#, #"{"type":"integer"}"#),
        SchemaPair("type-changed", #"{"type":"number"}"#, #"{"type":"string"}"#),
        SchemaPair("became-nullable", #"{"type":"string"}"#, #"{"type":["string","null"]}"#),
        SchemaPair("became-not-nullable", #"{"type":["string","null"]}"#, #"{"type":"string"}"#),
    ]

    static let formats: [SchemaPair] = [
        SchemaPair("format-added", #"{"type":"string"}"#, #"{"type":"string","format":"date"}"#),
        SchemaPair("format-removed", #"{"type":"string","format":"date"}"#, #"{"type":"string"}"#),
        SchemaPair("format-changed", #"{"type":"string","format":"date"}"#, #"{"type":"string","format":"date-time"}"#),
        // Formats of numbers: `int32` to `int64`, `float` to `double`.
        SchemaPair(
            "format-widened", #"{"type":"integer","format":"int32"}"#, #"{"type":"integer","format":"int64"}"#, variant: "integer"),
        SchemaPair(
            "format-narrowed", #"{"type":"integer","format":"int64"}"#, #"{"type":"integer","format":"int32"}"#, variant: "integer"),
        SchemaPair(
            "format-widened", #"{"type":"number","format":"float"}"#, #"{"type":"number","format":"double"}"#, variant: "number"),
        SchemaPair("format-added", #"{"type":"integer"}"#, #"{"type":"integer","format":"int32"}"#, variant: "integer"),
        // Without a `type` every kind is shared, strings too, so the format is compared.
        SchemaPair("format-widened", #"{"format":"int32"}"#, #"{"format":"int64"}"#, variant: "no type"),
        SchemaPair("format-narrowed", #"{"format":"double"}"#, #"{"format":"float"}"#, variant: "no type"),
    ]


    static let values: [SchemaPair] = [
        SchemaPair("enum-value-added", #"{"type":"string","enum":["a","b"]}"#, #"{"type":"string","enum":["a","b","c"]}"#),
        SchemaPair("enum-value-removed", #"{"type":"string","enum":["a","b","c"]}"#, #"{"type":"string","enum":["a","b"]}"#),
        SchemaPair("enum-added", #"{"type":"string"}"#, #"{"type":"string","enum":["a","b"]}"#),
        SchemaPair("enum-removed", #"{"type":"string","enum":["a","b"]}"#, #"{"type":"string"}"#),
        SchemaPair("const-added", #"{"type":"string"}"#, #"{"type":"string","const":"a"}"#),
        SchemaPair("const-removed", #"{"type":"string","const":"a"}"#, #"{"type":"string"}"#),
        SchemaPair("const-changed", #"{"type":"string","const":"a"}"#, #"{"type":"string","const":"b"}"#),
    ]

    static let numbers: [SchemaPair] = [
        SchemaPair("multiple-of-added", #"{"type":"number"}"#, #"{"type":"number","multipleOf":0.01}"#),
        SchemaPair("multiple-of-removed", #"{"type":"number","multipleOf":0.01}"#, #"{"type":"number"}"#),
        SchemaPair("multiple-of-widened", #"{"type":"number","multipleOf":0.02}"#, #"{"type":"number","multipleOf":0.01}"#),
        SchemaPair("multiple-of-narrowed", #"{"type":"number","multipleOf":0.01}"#, #"{"type":"number","multipleOf":0.02}"#),
        SchemaPair("multiple-of-changed", #"{"type":"number","multipleOf":2}"#, #"{"type":"number","multipleOf":3}"#),
    ]

    static let strings: [SchemaPair] = [
        SchemaPair("pattern-added", #"{"type":"string"}"#, #"{"type":"string","pattern":"^a"}"#),
        SchemaPair("pattern-removed", #"{"type":"string","pattern":"^a"}"#, #"{"type":"string"}"#),
        SchemaPair("pattern-changed", #"{"type":"string","pattern":"^a"}"#, #"{"type":"string","pattern":"^b"}"#),
        SchemaPair("unique-items-added", #"{"type":"array"}"#, #"{"type":"array","uniqueItems":true}"#),
        SchemaPair("unique-items-removed", #"{"type":"array","uniqueItems":true}"#, #"{"type":"array"}"#),
    ]

    static let objects: [SchemaPair] = [
        SchemaPair(
            "required-property-added", #"{"type":"object","properties":{"a":{"type":"string"}}}"#,
            #"{"type":"object","required":["b"],"properties":{"a":{"type":"string"},"b":{"type":"string"}}}"#),
        SchemaPair(
            "property-became-required", #"{"type":"object","properties":{"a":{"type":"string"}}}"#,
            #"{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}"#),
        SchemaPair(
            "property-became-optional", #"{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}"#,
            #"{"type":"object","properties":{"a":{"type":"string"}}}"#),
        SchemaPair(
            "required-property-removed", #"{"type":"object","required":["a","b"],"properties":{"a":{"type":"string"},"b":{"type":"string"}}}"#,
            #"{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}"#),
        SchemaPair(
            "property-added", #"{"type":"object","properties":{"a":{"type":"string"}}}"#,
            #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}"#),
        SchemaPair(
            "property-added-to-closed-object", #"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#,
            #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false}"#),
        SchemaPair(
            "property-removed", #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}"#,
            #"{"type":"object","properties":{"a":{"type":"string"}}}"#),
        SchemaPair(
            "property-removed-from-closed-object", #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false}"#,
            #"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#),
        SchemaPair(
            "additional-properties-opened", #"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#,
            #"{"type":"object","properties":{"a":{"type":"string"}}}"#),
        SchemaPair(
            "additional-properties-closed", #"{"type":"object","properties":{"a":{"type":"string"}}}"#,
            #"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#),
    ]

    static let whole: [SchemaPair] = [
        SchemaPair("schema-became-false", #"{"type":"string"}"#, "false"),
        SchemaPair("schema-became-true", "false", "true"),
        SchemaPair("schema-became-true", "false", "{}", variant: "{}"),
        // The schema becomes `true` from a schema that was not `false`, as `schema-became-false`
        // fires from any schema.
        SchemaPair(
            "schema-became-true", #"{"type":"string"}"#, "true", variant: "from a typed schema"),
    ]

    static let opaque: [SchemaPair] = [
        SchemaPair("keyword-added", #"{"type":"string"}"#, #"{"type":"string","not":{"const":"x"}}"#),
        SchemaPair("keyword-removed", #"{"type":"string","not":{"const":"x"}}"#, #"{"type":"string"}"#),
        SchemaPair("keyword-changed", #"{"type":"string","not":{"const":"x"}}"#, #"{"type":"string","not":{"const":"y"}}"#),
        // `items` added is `keyword-added`; an `additionalProperties` schema (not `false`) added or
        // taken out is the same kind of change.
        SchemaPair(
            "keyword-added", #"{"type":"object"}"#, #"{"type":"object","additionalProperties":{"type":"string"}}"#, variant: "additionalProperties schema"),
        SchemaPair(
            "keyword-removed", #"{"type":"object","additionalProperties":{"type":"string"}}"#, #"{"type":"object"}"#, variant: "additionalProperties schema"),
        // Draft 7 schemas are supported (docs/contract-format.md), with their own keywords.
        SchemaPair(
            "keyword-added", #"{\#(draft7),"type":"object"}"#, #"{\#(draft7),"type":"object","dependencies":{"a":["b"]}}"#, variant: "draft 7 dependencies"),
        SchemaPair(
            "keyword-added", #"{\#(draft7),"type":"array","items":[{"type":"string"}]}"#,
            #"{\#(draft7),"type":"array","items":[{"type":"string"}],"additionalItems":false}"#, variant: "draft 7 additionalItems"),
    ]

    static let draft7 = #""$schema":"http://json-schema.org/draft-07/schema#""#

    /// The four actions on a bound: added, removed, raised (1 to 2), lowered (2 to 1). `base` is
    /// the rest of the schema, the same on both sides.
    static func bound(_ concept: String, _ keyword: String, _ base: String) -> [SchemaPair] {
        [
            SchemaPair("\(concept)-added", "{\(base)}", #"{\#(base),"\#(keyword)":1}"#),
            SchemaPair("\(concept)-removed", #"{\#(base),"\#(keyword)":1}"#, "{\(base)}"),
            SchemaPair("\(concept)-raised", #"{\#(base),"\#(keyword)":1}"#, #"{\#(base),"\#(keyword)":2}"#),
            SchemaPair("\(concept)-lowered", #"{\#(base),"\#(keyword)":2}"#, #"{\#(base),"\#(keyword)":1}"#),
        ]
    }

    static let bounds: [SchemaPair] =
        bound("minimum", "minimum", #""type":"number""#) + bound("exclusive-minimum", "exclusiveMinimum", #""type":"number""#)
        + bound("min-length", "minLength", #""type":"string""#) + bound("min-items", "minItems", #""type":"array""#)
        + bound("min-properties", "minProperties", #""type":"object""#)
        + bound("min-contains", "minContains", #""type":"array","contains":{"type":"string"}"#)
        + bound("maximum", "maximum", #""type":"number""#) + bound("exclusive-maximum", "exclusiveMaximum", #""type":"number""#)
        + bound("max-length", "maxLength", #""type":"string""#) + bound("max-items", "maxItems", #""type":"array""#)
        + bound("max-properties", "maxProperties", #""type":"object""#)
        + bound("max-contains", "maxContains", #""type":"array","contains":{"type":"string"}"#)

    static let combinations: [SchemaPair] = [
        SchemaPair("one-of-branch-added", #"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#, #"{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"boolean"}]}"#),
        SchemaPair("one-of-branch-removed", #"{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"boolean"}]}"#, #"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#),
        SchemaPair("one-of-added", #"{"type":"string"}"#, #"{"type":"string","oneOf":[{"minLength":1},{"const":""}]}"#),
        SchemaPair("one-of-removed", #"{"type":"string","oneOf":[{"minLength":1},{"const":""}]}"#, #"{"type":"string"}"#),
        SchemaPair("any-of-branch-added", #"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, #"{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"boolean"}]}"#),
        SchemaPair("any-of-branch-removed", #"{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"boolean"}]}"#, #"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#),
        SchemaPair("any-of-added", #"{"type":"string"}"#, #"{"type":"string","anyOf":[{"minLength":1},{"const":""}]}"#),
        SchemaPair("any-of-removed", #"{"type":"string","anyOf":[{"minLength":1},{"const":""}]}"#, #"{"type":"string"}"#),
        SchemaPair("all-of-part-added", #"{"allOf":[{"type":"string"}]}"#, #"{"allOf":[{"type":"string"},{"minLength":1}]}"#),
        SchemaPair("all-of-part-removed", #"{"allOf":[{"type":"string"},{"minLength":1}]}"#, #"{"allOf":[{"type":"string"}]}"#),
        SchemaPair("all-of-added", #"{"type":"string"}"#, #"{"type":"string","allOf":[{"minLength":1}]}"#),
        SchemaPair("all-of-removed", #"{"type":"string","allOf":[{"minLength":1}]}"#, #"{"type":"string"}"#),
    ]
}
