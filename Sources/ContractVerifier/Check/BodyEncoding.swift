import ContractJSON
import ContractModel

/// What a response says about its body's bytes, and the checks that follow from it whatever the
/// contract checks: a body declared UTF-8 (a `charset=utf-8` parameter, or a JSON media type,
/// which RFC 8259 §8.1 makes UTF-8 whatever the parameter says) must be UTF-8 that any client
/// decodes; a JSON body must not start with a byte order mark.
struct BodyDeclaration {
    /// The first `Content-Type` field, as received.
    var contentType: String?
    /// `application/json` or `*/*+json`.
    var isJSON: Bool
    /// A `charset` parameter naming UTF-8 (`utf-8`, `utf8`, any case, quoted or not).
    var declaresUTF8: Bool

    init(contentType: String?) {
        self.contentType = contentType
        isJSON = MediaType.isJSON(contentType)
        declaresUTF8 = contentType.map(Self.charsetIsUTF8) ?? false
    }

    /// Whether the parameters of a media type (`text/plain; charset="UTF-8"`) name UTF-8.
    static func charsetIsUTF8(_ contentType: String) -> Bool {
        // Most responses have no parameter at all: no split for them.
        guard contentType.utf8.contains(UInt8(ascii: ";")) else { return false }
        for parameter in contentType.split(separator: ";").dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingOWS()
            guard name.lowercased() == "charset" else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingOWS()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            let lowered = value.lowercased()
            return lowered == "utf-8" || lowered == "utf8"
        }
        return false
    }
}

extension Substring {
    fileprivate func trimmingOWS() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

enum BodyEncoding {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func startsWithByteOrderMark(_ body: [UInt8]) -> Bool {
        body.count >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF
    }

    /// The offset of the first byte that does not begin or continue a well-formed UTF-8 sequence
    /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or nil when the whole
    /// body is UTF-8. Linear; ASCII runs are skipped eight bytes at a time.
    static func firstInvalidUTF8(_ body: [UInt8]) -> Int? {
        body.withUnsafeBufferPointer { bytes -> Int? in
            // An empty array may have no storage at all; it is valid UTF-8.
            guard let base = bytes.baseAddress else { return nil }
            let count = bytes.count
            var index = 0
            while index < count {
                if index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        index += 8
                        continue
                    }
                }
                let lead = bytes[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                let length: Int
                var lower: UInt8 = 0x80
                var upper: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: (length, lower) = (3, 0xA0)  // no overlong forms
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: (length, upper) = (3, 0x9F)  // no surrogates
                case 0xF0: (length, lower) = (4, 0x90)
                case 0xF1...0xF3: length = 4
                case 0xF4: (length, upper) = (4, 0x8F)  // nothing above U+10FFFF
                default: return index
                }
                guard index + length <= count else { return index }
                let second = bytes[index + 1]
                guard second >= lower && second <= upper else { return index }
                for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
                    return index
                }
                index += length
            }
            return nil
        }
    }

    /// `0xE2 0x28`: the bytes of the broken sequence at `offset` (at most four), for a message.
    static func describeBytes(at offset: Int, in body: [UInt8]) -> String {
        var end = offset + 1
        // The lead byte and the continuation bytes that follow it, as a decoder sees the sequence.
        while end < body.count, end - offset < 4, body[end] & 0xC0 == 0x80, body[offset] >= 0xC0 { end += 1 }
        return body[offset..<end].map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: " ")
    }

    /// `line 1, column 3 (byte 2)`: where a byte is, for people (line and column) and tools (offset).
    static func position(of offset: Int, in body: [UInt8]) -> String {
        let location = SourceText(body, indexLines: false).location(ofOffset: offset)
        return "line \(location.line), column \(location.column) (byte \(offset))"
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
