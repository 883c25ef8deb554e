/// A `pattern` or `patternProperties` regular expression, compiled once with the schema. A class,
/// so that keywords holding it copy one reference.
final class CompiledPattern: Sendable {
    let source: String
    private let regex: ECMARegex

    init(_ source: String) throws(RegexSyntaxError) {
        self.source = source
        regex = try ECMARegex(source)
    }

    /// Search semantics: the pattern may match anywhere unless it anchors itself.
    func matches(_ string: String) -> Bool {
        regex.matches(string)
    }

    func matches(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        regex.matches(utf8: utf8)
    }
}
