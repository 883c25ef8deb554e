import ContractJSON

/// The values a path gives a template's placeholders: `/api/products/42` against
/// `/api/products/{id}` gives `id: "42"`, percent-decoded.
enum PathValues {
    /// A template read once: each segment's placeholder with the literal text around it (`{name}.json`).
    struct Template: Sendable {
        struct Placeholder: Sendable {
            var prefix: String
            var name: String
            var suffix: String
        }

        /// Per segment, its placeholder; nil for a literal segment, or one with two placeholders,
        /// which cannot be told apart.
        let segments: [Placeholder?]

        init(_ template: String) {
            segments = template.split(separator: "/", omittingEmptySubsequences: true).map { part in
                guard let open = part.firstIndex(of: "{"), let close = part.firstIndex(of: "}"), open < close,
                    part[part.index(after: close)...].firstIndex(of: "{") == nil
                else { return nil }
                return Placeholder(prefix: String(part[..<open]), name: String(part[part.index(after: open)..<close]), suffix: String(part[part.index(after: close)...]))
            }
        }

    }

    static func read(_ path: String, template: Template) -> [String: String] {
        var segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { Substring($0) }
        // A base URL with a path of its own (`/v1/pets/7` for `/pets/{id}`, routed by an OpenAPI
        // client's operation): the template is the path's end.
        if segments.count > template.segments.count { segments = Array(segments.suffix(template.segments.count)) }
        guard template.segments.count == segments.count else { return [:] }
        var values: [String: String] = [:]
        for (placeholder, segment) in zip(template.segments, segments) {
            guard let placeholder, segment.hasPrefix(placeholder.prefix), segment.hasSuffix(placeholder.suffix),
                segment.count >= placeholder.prefix.count + placeholder.suffix.count
            else { continue }
            let value = segment.dropFirst(placeholder.prefix.count).dropLast(placeholder.suffix.count)
            values[placeholder.name] = percentDecoded(String(value))
        }
        return values
    }

    /// `caf%C3%A9` is `café`; an escape that is not two hex digits, or bytes that are not UTF-8,
    /// leave the text as sent.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        return PercentEncoding.decoded(text) ?? text
    }
}
