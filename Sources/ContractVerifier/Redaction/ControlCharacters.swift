/// Control characters in text a server sent (a header value, a string in a body) shown as
/// escapes: written raw to a terminal, `ESC ]52;…` sets the clipboard and `ESC [1A` rewrites the
/// line above, so a server could print a fake `PASS`; a newline would start a fake line.
enum ControlCharacters {
    /// `text` with every C0 control (newlines and tabs too), DEL and C1 control as `\u{1B}`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.append(scalar)
                continue
            }
            result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
