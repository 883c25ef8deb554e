/// What HTTP allows in a header field (RFC 9110 §5): a name is a token, a value holds no line
/// break and no control character but a tab. One rule for every place a header is read or made:
/// the contract loader, the fixture writer and the fixture reader, so a value that no answer can
/// carry is refused where it comes in, never written on the wire (where it splits the answer).
public enum FieldSyntax {
    /// One or more RFC 9110 token characters: letters, digits and `!#$%&'*+-.^_`|~`.
    public static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    public static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// The first character a header value cannot hold (a line break, another control character,
    /// DEL); nil when it has none.
    public static func forbiddenCharacter(inValue value: some StringProtocol) -> Unicode.Scalar? {
        value.unicodeScalars.first(where: isForbiddenInValue)
    }

    /// A control character other than the tab, or DEL: what no header value may hold.
    @Sendable public static func isForbiddenInValue(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
    }
}
