/// E-mail addresses as RFC 5321 section 4.1.2 writes a Mailbox: a dot-atom or quoted local part,
/// `@`, and a domain name or an address literal (`[192.0.2.1]`, `[IPv6:…]`). `idn-email` (RFC 6531)
/// also admits non-ASCII text in the local part and an internationalised domain.
enum EmailFormats {
    static func isEmail(_ value: String, international: Bool) -> Bool {
        var value = value
        return value.withUTF8 { isEmail($0, international: international) }
    }

    /// Scans the bytes in place: `email` runs on every such field of every validated document.
    static func isEmail(_ bytes: UnsafeBufferPointer<UInt8>, international: Bool = false) -> Bool {
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else { return false }
        let domain = UnsafeBufferPointer(rebasing: bytes[(at + 1)...])
        guard isLocalPart(bytes[..<at], international: international) else { return false }
        if domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]") {
            let literal = Array(domain.dropFirst().dropLast())[...]
            if literal.starts(with: Array("IPv6:".utf8)) { return IPFormats.isIPv6(literal.dropFirst(5)) }
            return IPFormats.isIPv4(literal)
        }
        if !international { return HostnameFormats.isHostname(domain) }
        return HostnameFormats.isInternationalHostname(String(decoding: domain, as: UTF8.self))
    }

    private static func isLocalPart(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, international: Bool) -> Bool {
        guard bytes.count <= 64 || international else { return false }
        if bytes.first == UInt8(ascii: "\"") {
            // quoted-string: printable ASCII but '"' and '\', or a backslash pair.
            guard bytes.count >= 2, bytes.last == UInt8(ascii: "\"") else { return false }
            var index = bytes.startIndex + 1
            while index < bytes.endIndex - 1 {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < bytes.endIndex - 1, bytes[index] >= 32, bytes[index] < 127 else { return false }
                } else if byte == UInt8(ascii: "\"") || (byte < 32 && byte != 9) || (byte >= 127 && !international) {
                    return false
                }
                index += 1
            }
            return true
        }
        // dot-atom: atoms of atext separated by single dots.
        guard bytes.first != UInt8(ascii: "."), bytes.last != UInt8(ascii: ".") else { return false }
        var previousDot = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
                continue
            }
            previousDot = false
            guard isAtext(byte) || (international && byte >= 0x80) else { return false }
        }
        return true
    }

    private static func isAtext(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "?"),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
