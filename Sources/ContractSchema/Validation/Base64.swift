/// Strict RFC 4648 base64 decoding (padding required, no line breaks), for draft 7's `contentEncoding`.
public enum Base64 {
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            var quad: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                let value: UInt32
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
                case UInt8(ascii: "+"): value = 62
                case UInt8(ascii: "/"): value = 63
                case UInt8(ascii: "=") where index + 4 == input.count && offset >= 2:
                    padding += 1
                    value = 0
                default: return nil
                }
                // Data after padding ('=' then a letter) is malformed.
                if padding > 0 && byte != UInt8(ascii: "=") { return nil }
                quad = quad << 6 | value
            }
            output.append(UInt8(quad >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(quad >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(quad & 0xFF)) }
            index += 4
        }
        return output
    }
}
