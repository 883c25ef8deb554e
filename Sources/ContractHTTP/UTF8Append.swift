extension Array where Element == UInt8 {
    /// Appends `text`'s UTF-8 bytes as one copy. `append(contentsOf: text.utf8)` goes through the
    /// generic sequence path, byte by byte, which costs more than building the text as a string:
    /// this runs per request (header lines) and per case (console lines). Read in place where the
    /// string's storage allows (nearly always): a mutable copy for `withUTF8` cost a retain and a
    /// release each.
    package mutating func appendUTF8(_ text: String) {
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        guard appended == nil else { return }
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
