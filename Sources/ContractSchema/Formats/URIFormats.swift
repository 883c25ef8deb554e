/// URIs (RFC 3986), IRIs (RFC 3987) and URI Templates (RFC 6570), checked by their grammars.
enum URIFormats {
    /// - Parameters:
    ///   - international: admit non-ASCII characters (IRI `ucschar`) where URIs admit unreserved ones.
    ///   - referenceAllowed: admit relative references (no scheme).
    static func isURI(_ value: String, international: Bool, referenceAllowed: Bool) -> Bool {
        if let result = value.utf8.withContiguousStorageIfAvailable({ isURI($0, international: international, referenceAllowed: referenceAllowed) }) {
            return result
        }
        return Array(value.utf8).withUnsafeBufferPointer { isURI($0, international: international, referenceAllowed: referenceAllowed) }
    }

    /// The same over UTF-8 read in place.
    static func isURI(_ bytes: UnsafeBufferPointer<UInt8>, international: Bool, referenceAllowed: Bool) -> Bool {
        var index = 0
        // scheme ":" when there is a ':' before any '/', '?' or '#'.
        var hasScheme = false
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            !bytes[..<colon].contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") })
        {
            let scheme = bytes[..<colon]
            guard let first = scheme.first, ASCII.isAlpha(first),
                scheme.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            else { return false }
            hasScheme = true
            index = colon + 1
        }
        guard hasScheme || referenceAllowed else { return false }
        // hier-part or relative-part: an authority after "//", then a path.
        if bytes.count >= index + 2, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            let end = bytes[index...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            guard isAuthority(bytes[index..<end], international: international) else { return false }
            index = end
        }
        let pathOrSlash = Self.pathOrSlash
        var section = 0  // 0 path, 1 query, 2 fragment
        while index < bytes.count {
            let byte = bytes[index]
            // Most bytes are plain path characters: one bitmap test settles them.
            if pathOrSlash.contains(byte) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "?") && section == 0 {
                section = 1
            } else if byte == UInt8(ascii: "#") && section < 2 {
                section = 2
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, ASCII.isHexDigit(bytes[index + 1]), ASCII.isHexDigit(bytes[index + 2]) else { return false }
                index += 2
            } else if !(isPathCharacter(byte) || byte == UInt8(ascii: "/") || (section > 0 && byte == UInt8(ascii: "?"))
                || (byte >= 0x80 && international))
            {
                return false
            }
            index += 1
        }
        // A relative path's first segment must not look like a scheme (RFC 3986 4.2).
        return true
    }

    private static func isAuthority(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, international: Bool) -> Bool {
        var host = bytes
        if let at = bytes.lastIndex(of: UInt8(ascii: "@")) {
            guard bytes[..<at].allSatisfy({ isUserinfoCharacter($0) || ($0 >= 0x80 && international) || $0 == UInt8(ascii: "%") }) else {
                return false
            }
            host = bytes[(at + 1)...]
        }
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = host[(host.startIndex + 1)..<close]
            guard IPFormats.isIPv6(ArraySlice(literal)) || isIPvFuture(literal) else { return false }
            return isPort(host[(close + 1)...])
        }
        if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
            guard isPort(host[colon...]) else { return false }
            host = host[..<colon]
        }
        return host.allSatisfy { hostCharacters.contains($0) || ($0 >= 0x80 && international) }
    }

    /// pchar and '/': unreserved, sub-delims, ':', '@' and '/'.
    private static let pathOrSlash = ASCIIBitmap(low: 0x2FFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)
    /// A registered name's characters: unreserved, sub-delims and '%' (its hex digits not checked).
    private static let hostCharacters = ASCIIBitmap(low: 0x2BFF_7FF2_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)

    private static func isPort(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        bytes.isEmpty || (bytes.first == UInt8(ascii: ":") && bytes.dropFirst().allSatisfy(ASCII.isDigit))
    }

    private static func isIPvFuture(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = bytes.first, first | 0x20 == UInt8(ascii: "v"), let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot > bytes.startIndex + 1 else {
            return false
        }
        return bytes[(bytes.startIndex + 1)..<dot].allSatisfy(ASCII.isHexDigit)
            && bytes[(dot + 1)...].allSatisfy { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&")...UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): true
        default: false
        }
    }

    private static func isUserinfoCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":")
    }

    /// pchar: unreserved, sub-delims, ':' and '@' (percent-encodings are handled by the caller).
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }

    /// RFC 6570 section 2: literals and `{operator? varspec, …}` expressions.
    static func isURITemplate(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")), isExpression(bytes[(index + 1)..<close]) else {
                    return false
                }
                index = close + 1
                continue
            }
            // RFC 6570 literals, except that the test suite (and common practice) admits the apostrophe.
            if byte == UInt8(ascii: "}") || byte < 0x21 || byte == 0x7F || "\"<>\\^`|".utf8.contains(byte) { return false }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, ASCII.isHexDigit(bytes[index + 1]), ASCII.isHexDigit(bytes[index + 2]) else { return false }
                index += 2
            }
            index += 1
        }
        return true
    }

    private static func isExpression(_ bytes: ArraySlice<UInt8>) -> Bool {
        var body = bytes
        if let first = body.first, "+#./;?&=,!@|".utf8.contains(first) { body = body.dropFirst() }
        guard !body.isEmpty else { return false }
        for spec in body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            var name = spec
            if let colon = spec.firstIndex(of: UInt8(ascii: ":")) {
                let length = spec[(colon + 1)...]
                guard (1...4).contains(length.count), length.allSatisfy(ASCII.isDigit), length.first != UInt8(ascii: "0") else { return false }
                name = spec[..<colon]
            } else if spec.last == UInt8(ascii: "*") {
                name = spec.dropLast()
            }
            guard !name.isEmpty, name.first != UInt8(ascii: "."), name.last != UInt8(ascii: "."),
                !zip(name, name.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") })
            else { return false }
            var index = name.startIndex
            while index < name.endIndex {
                let byte = name[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < name.endIndex, ASCII.isHexDigit(name[index + 1]), ASCII.isHexDigit(name[index + 2]) else { return false }
                    index += 3
                    continue
                }
                guard ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") else { return false }
                index += 1
            }
        }
        return true
    }
}

/// A set of ASCII bytes as a 128-bit bitmap: membership is a shift and a mask, where a chain of
/// comparisons per byte made URI scanning the costliest format check.
struct ASCIIBitmap: Sendable {
    let low: UInt64
    let high: UInt64

    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return (low >> UInt64(byte)) & 1 == 1 }
        if byte < 128 { return (high >> UInt64(byte - 64)) & 1 == 1 }
        return false
    }
}
