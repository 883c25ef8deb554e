/// The JSON Schema dialects the validator implements, chosen by a schema's `$schema`.
public enum SchemaDialect: String, Sendable, Hashable, CaseIterable {
    case draft2020_12 = "https://json-schema.org/draft/2020-12/schema"
    case draft7 = "http://json-schema.org/draft-07/schema"

    /// The dialect a `$schema` value names; an empty fragment and a trailing `#` are ignored.
    public init?(metaSchemaURI: String) {
        var uri = metaSchemaURI
        if uri.hasSuffix("#") { uri.removeLast() }
        if uri.hasPrefix("https://json-schema.org/draft-07/") { uri = "http://" + uri.dropFirst("https://".count) }
        guard let dialect = SchemaDialect(rawValue: uri) else { return nil }
        self = dialect
    }
}
