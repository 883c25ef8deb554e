/// Which keywords a schema's dialect turns on: all of them for the standard meta-schemas, or those
/// of the vocabularies a custom meta-schema lists in `$vocabulary`.
struct DialectInfo: Hashable {
    var dialect: SchemaDialect
    /// Nil when every vocabulary of the dialect is in use.
    var vocabularies: Set<String>?

    static let vocabularyPrefix = "https://json-schema.org/draft/2020-12/vocab/"

    /// Whether `keyword` takes effect under this dialect and its vocabularies.
    func isEnabled(_ keyword: String) -> Bool {
        guard let vocabularies, dialect == .draft2020_12, let vocabulary = Self.vocabulary(of: keyword) else { return true }
        return vocabularies.contains(Self.vocabularyPrefix + vocabulary)
    }

    static func vocabulary(of keyword: String) -> String? {
        switch keyword {
        case "prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties", "dependentSchemas",
            "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not":
            "applicator"
        case "unevaluatedItems", "unevaluatedProperties":
            "unevaluated"
        case "type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength",
            "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties",
            "minProperties", "required", "dependentRequired":
            "validation"
        default:
            nil
        }
    }

    /// Keywords whose value is one subschema.
    static let singleSubschemaKeywords: Set<String> = [
        "additionalProperties", "propertyNames", "contains", "not", "if", "then", "else", "unevaluatedItems",
        "unevaluatedProperties", "additionalItems", "contentSchema", "items",
    ]
    /// Keywords whose value is an array of subschemas.
    static let subschemaArrayKeywords: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems", "items"]
    /// Keywords whose value maps names to subschemas.
    static let subschemaMapKeywords: Set<String> = [
        "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies",
    ]
}
