/// The formats the validator asserts: every format of draft 2020-12 and draft 7 (`regex` included,
/// checked with the ECMA-262 engine). Hand-written scanners over UTF-8, no allocation for ASCII
/// input on the hot formats (uuid, date-time, email, uri), because they run on every string
/// with a `format` in every validated document.
public enum FormatChecker {
    /// Whether `value` is valid for `format`; nil when the format is unknown (and so not asserted).
    public static func isValid(_ value: String, format: String) -> Bool? {
        switch format {
        case "date-time": DateTimeFormats.isDateTime(value)
        case "date": DateTimeFormats.isDate(value)
        case "time": DateTimeFormats.isTime(value)
        case "duration": DateTimeFormats.isDuration(value)
        case "email": EmailFormats.isEmail(value, international: false)
        case "idn-email": EmailFormats.isEmail(value, international: true)
        case "hostname": HostnameFormats.isHostname(value)
        case "idn-hostname": HostnameFormats.isInternationalHostname(value)
        case "ipv4": IPFormats.isIPv4(value)
        case "ipv6": IPFormats.isIPv6(value)
        case "uri": URIFormats.isURI(value, international: false, referenceAllowed: false)
        case "uri-reference": URIFormats.isURI(value, international: false, referenceAllowed: true)
        case "iri": URIFormats.isURI(value, international: true, referenceAllowed: false)
        case "iri-reference": URIFormats.isURI(value, international: true, referenceAllowed: true)
        case "uri-template": URIFormats.isURITemplate(value)
        case "uuid": isUUID(value)
        case "json-pointer": PointerFormats.isJSONPointer(value)
        case "relative-json-pointer": PointerFormats.isRelativeJSONPointer(value)
        case "regex": (try? ECMARegex(value)) != nil
        default: nil
        }
    }

    /// The same check on UTF-8 bytes read in place; the hot formats never build a `String`.
    public static func isValid(utf8: UnsafeBufferPointer<UInt8>, format: String) -> Bool? {
        KnownFormat(rawValue: format).map { isValid(utf8: utf8, format: $0) }
    }

    /// The check for a format resolved when the schema was compiled: no name comparison per value.
    static func isValid(utf8: UnsafeBufferPointer<UInt8>, format: KnownFormat) -> Bool {
        switch format {
        case .uuid: return isUUID(utf8)
        case .dateTime: return DateTimeFormats.isDateTime(utf8)
        case .date: return DateTimeFormats.isDate(utf8)
        case .hostname: return HostnameFormats.isHostname(utf8)
        case .email: return EmailFormats.isEmail(utf8)
        case .uri: return URIFormats.isURI(utf8, international: false, referenceAllowed: false)
        case .uriReference: return URIFormats.isURI(utf8, international: false, referenceAllowed: true)
        default: return isValid(String(decoding: utf8, as: UTF8.self), format: format.rawValue) ?? true
        }
    }

    public static let knownFormats: Set<String> = Set(KnownFormat.allCases.map(\.rawValue))

    /// RFC 9562: 8-4-4-4-12 hexadecimal digits, any case.
    static func isUUID(_ value: String) -> Bool {
        value.utf8.withContiguousStorageIfAvailable(isUUID) ?? isUUID(Array(value.utf8))
    }

    /// The same on bytes read in place, with the hex digits tested by bitmap.
    static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        let hex = ASCIIBitmap(low: 0x03FF_0000_0000_0000, high: 0x0000_007E_0000_007E)
        for index in 0..<36 {
            let byte = bytes[index]
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !hex.contains(byte) {
                return false
            }
        }
        return true
    }

    static func isUUID(_ bytes: some RandomAccessCollection<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !ASCII.isHexDigit(byte) {
                return false
            }
        }
        return true
    }
}

/// The formats the validator knows, by their names in schemas.
enum KnownFormat: String, CaseIterable, Sendable {
    case dateTime = "date-time", date, time, duration, email, idnEmail = "idn-email", hostname, idnHostname = "idn-hostname"
    case ipv4, ipv6, uri, uriReference = "uri-reference", iri, iriReference = "iri-reference", uriTemplate = "uri-template"
    case uuid, jsonPointer = "json-pointer", relativeJSONPointer = "relative-json-pointer", regex
}

/// Byte classes shared by the format scanners.
enum ASCII {
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
    static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 102) }
    static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isAlpha(byte) }

    /// The value of `count` ASCII digits at `offset`, or nil.
    static func number<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int, _ count: Int) -> Int? where Bytes.Index == Int {
        guard offset + count <= bytes.count else { return nil }
        var value = 0
        for index in offset..<(offset + count) {
            guard isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - 48)
        }
        return value
    }
}
