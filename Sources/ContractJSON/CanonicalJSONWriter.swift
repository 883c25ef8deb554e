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
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// `value` as it appears nested `level` deep in a pretty document (its inner lines indented
    /// to match), without a final newline: for writing a large document a piece at a time.
    public func string(_ value: JSONValue, nestedAt level: Int) -> String {
        var output: [UInt8] = []
        write(value, indent: level, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    public func bytes(_ value: JSONValue) -> [UInt8] {
        // Bytes, not a String: appending to a String checks and counts every piece, which made
        // writing large reports slower than producing their contents.
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, indent: 0, into: &output)
        if case .pretty = style { output.append(UInt8(ascii: "\n")) }
        return output
    }

    private func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
        switch value {
        case .null: output += "null".utf8
        case .bool(let bool): output += (bool ? "true" : "false").utf8
        case .number(let number): output += number.description.utf8
        case .string(let string): Self.writeString(string, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]".utf8
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                write(element, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                output += "{}".utf8
                return
            }
            output.append(UInt8(ascii: "{"))
            let members = sortsKeys ? object.members.sorted { Self.precedes($0.key, $1.key) } : object.members
            for (position, member) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                Self.writeString(member.key, into: &output)
                output += (style == .pretty ? ": " : ":").utf8
                write(member.value, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ indent: Int, into output: inout [UInt8]) {
        guard case .pretty = style else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// RFC 8785 key order: by UTF-16 code units. UTF-8 bytes sort by code point, which is the same
    /// order unless a key holds a character from U+E000 up (lead byte 0xEE and above), so only
    /// such keys pay for comparing in UTF-16.
    static func precedes(_ a: String, _ b: String) -> Bool {
        if a.utf8.contains(where: { $0 >= 0xEE }) || b.utf8.contains(where: { $0 >= 0xEE }) {
            return a.utf16.lexicographicallyPrecedes(b.utf16)
        }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Escapes only what JSON requires: quote, backslash and control characters.
    public static func writeString(_ string: String, into output: inout String) {
        var bytes: [UInt8] = []
        writeString(string, into: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// The same, as UTF-8 bytes: runs that need no escape are copied whole.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = string
        text.withUTF8 { bytes in
            var run = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                switch byte {
                case UInt8(ascii: "\""): output += #"\""#.utf8
                case UInt8(ascii: "\\"): output += #"\\"#.utf8
                case 0x08: output += #"\b"#.utf8
                case 0x0C: output += #"\f"#.utf8
                case UInt8(ascii: "\n"): output += #"\n"#.utf8
                case UInt8(ascii: "\r"): output += #"\r"#.utf8
                case UInt8(ascii: "\t"): output += #"\t"#.utf8
                default: output += ("\\u" + hex(UInt32(byte), width: 4).lowercased()).utf8
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
