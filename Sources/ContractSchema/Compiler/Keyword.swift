import ContractJSON

/// One compiled keyword. An enum rather than a protocol so that applying a schema is a switch
/// over plain values, which keeps validation free of dynamic dispatch and allocation.
enum Keyword {
    // Assertions on any instance.
    case type(JSONTypeSet)
    case enumeration([JSONValue])
    case constant(JSONValue)

    // Numbers.
    case multipleOf(JSONNumber)
    case maximum(JSONNumber)
    case exclusiveMaximum(JSONNumber)
    case minimum(JSONNumber)
    case exclusiveMinimum(JSONNumber)

    // Strings.
    case maxLength(Int)
    case minLength(Int)
    case pattern(CompiledPattern)
    /// `asserted` when the schema's own vocabularies demand it (format-assertion); otherwise the
    /// validator's option decides.
    case format(String, asserted: Bool)
    /// Draft 7 asserts `contentEncoding` (base64) and `contentMediaType` (JSON); 2020-12 only annotates.
    case content(base64: Bool, json: Bool)

    // Arrays.
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    /// 2020-12 `prefixItems` with `items` for the rest; draft 7 `items` array with `additionalItems`.
    case items(prefix: [SchemaNode], rest: SchemaNode?, prefixKeyword: String, restKeyword: String)
    case contains(SchemaNode, min: Int, max: Int?)
    case unevaluatedItems(SchemaNode)

    // Objects.
    case maxProperties(Int)
    case minProperties(Int)
    case required([String])
    case dependentRequired([(property: String, required: [String])])
    case properties(
        named: [String: SchemaNode], patterns: [(CompiledPattern, SchemaNode)], additional: SchemaNode?,
        propertiesKeyword: Bool, patternKeyword: Bool)
    case propertyNames(SchemaNode)
    case dependentSchemas([(property: String, schema: SchemaNode)], keyword: String)
    case unevaluatedProperties(SchemaNode)

    // Applicators in place.
    case ref(SchemaNode, keyword: String)
    case dynamicRef(SchemaNode, anchor: String?)
    case allOf([SchemaNode])
    case anyOf([SchemaNode])
    case oneOf([SchemaNode])
    case not(SchemaNode)
    case conditional(if: SchemaNode, then: SchemaNode?, else: SchemaNode?)
}
