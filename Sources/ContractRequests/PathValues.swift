import ContractJSON

/// The values a path gives a template's placeholders: `/api/products/42` against
/// `/api/products/{id}` gives `id: "42"`, percent-decoded.
enum PathValues {
    static func read(_ path: String, template: String) -> [String: String] {
        let parts = template.split(separator: "/", omittingEmptySubsequences: true)
        var segments = path.split(separator: "/", omittingEmptySubsequences: true)
        // A base URL with a path of its own (`/v1/pets/7` for `/pets/{id}`, routed by an OpenAPI
        // client's operation): the template is the path's end.
        if segments.count > parts.count { segments = Array(segments.suffix(parts.count)) }
        guard parts.count == segments.count else { return [:] }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            // A placeholder with literal text around it in its segment (`{name}.json`); two
            // placeholders in one segment cannot be told apart, so neither is read.
            guard let open = part.firstIndex(of: "{"), let close = part.firstIndex(of: "}"), open < close,
                part[part.index(after: close)...].firstIndex(of: "{") == nil
            else { continue }
            let prefix = part[..<open]
            let suffix = part[part.index(after: close)...]
            guard segment.hasPrefix(prefix), segment.hasSuffix(suffix), segment.count >= prefix.count + suffix.count else { continue }
            let value = segment.dropFirst(prefix.count).dropLast(suffix.count)
            values[String(part[part.index(after: open)..<close])] = percentDecoded(String(value))
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
