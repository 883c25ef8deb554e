/// Writes JSON byte-stably: keys sorted by UTF-16 code units (as RFC 8785 does), minimal string
/// escapes, and the exact canonical number text of ``JSONNumber``. The same value always gives
/// the same bytes, on any machine.
public struct CanonicalJSONWriter: Sendable {
    public enum Style: Sendable {
        /// No whitespace at all: for hashing and one-line output.
        case compact
        /// Two-space indentation and a final newline: for files people review in diffs.
        case pretty
    }

    public var style: Style
    /// False keeps object members in their order, for files made to be read (a contract's `id`
    /// before its `cases`); the bytes are still the same for the same value.
    public var sortsKeys: Bool

    public init(style: Style = .pretty, sortsKeys: Bool = true) {
        self.style = style
        self.sortsKeys = sortsKeys
    }

    public func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: 0, into: &output)
        if case .pretty = style { output += "\n" }
        return output
    }

    /// `value` as it appears nested `level` deep in a pretty document (its inner lines indented
    /// to match), without a final newline: for writing a large document a piece at a time.
    public func string(_ value: JSONValue, nestedAt level: Int) -> String {
        var output = ""
        write(value, indent: level, into: &output)
        return output
    }

    public func bytes(_ value: JSONValue) -> [UInt8] {
        Array(string(value).utf8)
    }

    private func write(_ value: JSONValue, indent: Int, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .number(let number): output += number.description
        case .string(let string): Self.writeString(string, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                newline(indent + 1, into: &output)
                write(element, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output += "]"
        case .object(let object):
            guard !object.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            let members = sortsKeys ? object.members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) } : object.members
            for (position, member) in members.enumerated() {
                if position > 0 { output += "," }
                newline(indent + 1, into: &output)
                Self.writeString(member.key, into: &output)
                output += style == .pretty ? ": " : ":"
                write(member.value, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output += "}"
        }
    }

    private func newline(_ indent: Int, into output: inout String) {
        guard case .pretty = style else { return }
        output += "\n" + String(repeating: "  ", count: indent)
    }

    /// Escapes only what JSON requires: quote, backslash and control characters.
    public static func writeString(_ string: String, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{00}"..."\u{1F}": output += "\\u" + hex(scalar.value, width: 4).lowercased()
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
