extension String {
    /// Whether the text has a `${`, where a placeholder would start: a scan of its bytes.
    ///
    /// `String.contains("${")` goes through Foundation's `CFStringFind` (UTF-16, locale-aware
    /// options); the check stage asked it twice for every header pattern of every response, which
    /// cost more than matching the pattern.
    var mayHoldPlaceholder: Bool {
        var afterDollar = false
        for byte in utf8 {
            if afterDollar && byte == UInt8(ascii: "{") { return true }
            afterDollar = byte == UInt8(ascii: "$")
        }
        return false
    }
}
