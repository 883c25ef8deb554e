/// A URI reference (RFC 3986) split into its five parts, with reference resolution (section 5.2)
/// and the light normalisation schema identifiers need. Schema `$id`s and `$ref`s are compared
/// as resolved absolute URIs without fragment.
public struct URIReference: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String?
    public var authority: String?
    public var path: String
    public var query: String?
    public var fragment: String?

    public init(scheme: String? = nil, authority: String? = nil, path: String = "", query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits a reference with the regular expression of RFC 3986 appendix B; never fails.
    public init(parsing text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    public var isAbsolute: Bool { scheme != nil }

    /// The reference without its fragment: the identifier of a whole schema resource.
    public var withoutFragment: URIReference {
        var copy = self
        copy.fragment = nil
        return copy
    }

    /// Resolves `reference` against this (absolute) base, RFC 3986 section 5.2.2.
    public func resolving(_ reference: URIReference) -> URIReference {
        var target = URIReference()
        if let scheme = reference.scheme {
            target = reference
            target.scheme = scheme
            target.path = Self.removeDotSegments(reference.path)
        } else {
            if reference.authority != nil {
                target.authority = reference.authority
                target.path = Self.removeDotSegments(reference.path)
                target.query = reference.query
            } else {
                if reference.path.isEmpty {
                    target.path = path
                    target.query = reference.query ?? query
                } else {
                    if reference.path.hasPrefix("/") {
                        target.path = Self.removeDotSegments(reference.path)
                    } else {
                        target.path = Self.removeDotSegments(merge(reference.path))
                    }
                    target.query = reference.query
                }
                target.authority = authority
            }
            target.scheme = scheme
        }
        target.fragment = reference.fragment
        return target
    }

    public func resolving(_ text: String) -> URIReference {
        resolving(URIReference(parsing: text))
    }

    private func merge(_ relative: String) -> String {
        if authority != nil && path.isEmpty { return "/" + relative }
        guard let slash = path.lastIndex(of: "/") else {
            // A base such as "urn:example:x" has no folder to merge into.
            return relative
        }
        return path[...slash] + relative
    }

    /// RFC 3986 section 5.2.4.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    public var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }
}
