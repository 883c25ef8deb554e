/// IP addresses as RFC 2673 (dotted quad) and RFC 4291 section 2.2 write them.
enum IPFormats {
    static func isIPv4(_ value: String) -> Bool {
        isIPv4(Array(value.utf8)[...])
    }

    /// Four decimal octets from 0 to 255, without leading zeros (which some readers take as octal).
    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(ASCII.isDigit) else { return false }
            if part.count > 1 && part.first == UInt8(ascii: "0") { return false }
            var value = 0
            for byte in part { value = value * 10 + Int(byte - 48) }
            guard value <= 255 else { return false }
        }
        return true
    }

    static func isIPv6(_ value: String) -> Bool {
        isIPv6(Array(value.utf8)[...])
    }

    /// Eight groups of up to four hex digits, one `::` standing for zero groups or more, and an
    /// optional dotted quad in place of the last two groups. No zone index.
    static func isIPv6(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var groups = 0
        var compressed = false
        var index = bytes.startIndex
        if bytes.starts(with: [58, 58]) {
            compressed = true
            index += 2
            if index == bytes.endIndex { return true }
        } else if bytes.first == 58 {
            return false
        }
        while index < bytes.endIndex {
            var end = index
            while end < bytes.endIndex, bytes[end] != 58 { end += 1 }
            let group = bytes[index..<end]
            if end == bytes.endIndex, group.contains(UInt8(ascii: ".")) {
                guard isIPv4(group) else { return false }
                groups += 2
                index = end
                break
            }
            guard (1...4).contains(group.count), group.allSatisfy(ASCII.isHexDigit) else { return false }
            groups += 1
            index = end
            if index < bytes.endIndex {
                index += 1  // ':'
                if index < bytes.endIndex, bytes[index] == 58 {
                    guard !compressed else { return false }
                    compressed = true
                    index += 1
                    if index == bytes.endIndex { break }
                } else if index == bytes.endIndex {
                    return false  // a trailing single ':'
                }
            }
        }
        return compressed ? groups <= 7 : groups == 8
    }
}
