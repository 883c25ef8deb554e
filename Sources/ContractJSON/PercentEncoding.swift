/// Percent-encoding (RFC 3986 §2.1), both ways: the parts of a URL the verifier builds, and,
/// read strictly (a `%` is followed by two hex digits, and the bytes decode as UTF-8), JSON
/// Pointers in URI fragments, request paths and the redaction of escaped secrets.
public enum PercentEncoding {
    /// Everything but unreserved characters encoded, so a value can never add a path segment.
    public static func pathSegment(_ text: String) -> String {
        encode(text) { isUnreserved($0) }
    }

    public static func queryComponent(_ text: String) -> String {
        encode(text) { isUnreserved($0) }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if keep(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of one hex digit, any case; nil for any other byte.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `caf%C3%A9` is `café`; nil when an escape is not `%` and two hex digits, or the bytes are
    /// not UTF-8.
    public static func decoded(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
