/// A request path such as `/api/products/{id}`, with its placeholders.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case placeholder(String)
    }

    public var segments: [Segment]

    public init(segments: [Segment]) {
        self.segments = segments
    }

    public init(parsing text: String) throws(TemplateSyntaxError) {
        guard text.hasPrefix("/") else {
            throw TemplateSyntaxError(message: "'path' must start with '/', found \(describe(.string(text)))")
        }
        if let bad = text.first(where: { $0 == "?" || $0 == "#" }) {
            let hint = bad == "?" ? "put query parameters in 'query'" : "a fragment is never sent to a server"
            throw TemplateSyntaxError(message: "'path' must not contain '\(bad)': \(hint), found \(describe(.string(text)))")
        }
        var segments: [Segment] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{" else {
                throw TemplateSyntaxError(message: "'path' has a '}' without a '{' before it, in \(describe(.string(text)))")
            }
            if open > rest.startIndex { segments.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw TemplateSyntaxError(message: "'path' has a '{' without a closing '}', in \(describe(.string(text)))")
            }
            let name = rest[rest.index(after: open)..<close]
            guard TemplateString.isVariableName(name) else {
                throw TemplateSyntaxError(
                    message: "'path' has an invalid placeholder '{\(name)}': names are letters, digits and '_', not starting with a digit")
            }
            segments.append(.placeholder(String(name)))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
        self.segments = segments
    }

    /// Placeholder names in order of appearance, without repeats.
    public var placeholders: [String] {
        var seen: [String] = []
        for case .placeholder(let name) in segments where !seen.contains(name) {
            seen.append(name)
        }
        return seen
    }

    public var description: String {
        segments.map {
            switch $0 {
            case .literal(let text): text
            case .placeholder(let name): "{\(name)}"
            }
        }.joined()
    }
}
