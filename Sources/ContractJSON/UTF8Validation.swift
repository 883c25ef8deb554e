/// Strict UTF-8 decoding (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
enum UTF8Validation {
    /// Decodes the scalar starting at `offset`; nil when the bytes there are not valid UTF-8.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, length: Int)? {
        let lead = bytes[offset]
        let length: Int
        var value: UInt32
        var minimum: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, value, minimum) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (length, value, minimum) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF4: (length, value, minimum) = (4, UInt32(lead & 0x07), 0x10000)
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        for index in 1..<length {
            let byte = bytes[offset + index]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
