/// Strings that a `pattern` matches, for schemas and header expectations in fixtures.
///
/// The pattern is read by the validator's own parser (``ECMARegex``'s `RegexParser`), so synthesis
/// and validation cannot disagree about what it means. Candidates are rendered from that tree with
/// more and more repetitions and other alternatives (assertions and lookarounds produce nothing),
/// then checked with ``ECMARegex`` and the length bounds. The search is deterministic and capped,
/// so any pattern gives a string or nil quickly.
public enum PatternSynthesizer {
    /// A string for `pattern` without length bounds: ``matchingExample(for:minLength:maxLength:)``
    /// with its defaults. A pattern the engine rejects has no example.
    public static func example(for pattern: String) -> String? {
        matchingExample(for: pattern)
    }

    /// A string that `pattern` matches anywhere, as JSON Schema's `pattern` has it (checked with
    /// ``ECMARegex``), whose length in Unicode scalars (JSON Schema's code points) lies within
    /// `minLength...maxLength`; nil when the pattern does not compile, uses a backreference, nests
    /// groups too deeply, or no candidate within the search's caps fits.
    /// - Parameter excluding: characters the string must not hold (a header value's line breaks):
    ///   a candidate with one is passed over and the search goes on to the pattern's other
    ///   alternatives and repetitions.
    public static func matchingExample(
        for pattern: String, minLength: Int = 0, maxLength: Int? = nil, excluding: (@Sendable (Unicode.Scalar) -> Bool)? = nil
    ) -> String? {
        let minLength = max(0, minLength)
        if let maxLength, maxLength < minLength { return nil }
        guard let tree = Node.tree(for: pattern), let regex = try? ECMARegex(pattern) else { return nil }
        var search = Search(tree: tree, regex: regex, minLength: minLength, maxLength: maxLength, excluding: excluding)
        return search.run()
    }

    static func string(_ scalars: [UInt32]) -> String? {
        var view = String.UnicodeScalarView()
        for value in scalars {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            view.append(scalar)
        }
        return String(view)
    }
}
