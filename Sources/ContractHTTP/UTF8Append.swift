extension Array where Element == UInt8 {
    /// Appends `text`'s UTF-8 bytes as one copy. `append(contentsOf: text.utf8)` goes through the
    /// generic sequence path, byte by byte, which costs more than building the text as a string:
    /// this runs per request (header lines) and per case (console lines).
    package mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
