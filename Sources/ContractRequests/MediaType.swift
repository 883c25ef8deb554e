/// Media types as contracts meet them: in a response's `Content-Type` (verify), a request's (the
/// stubs), and an API description's content map (import).
public enum MediaType {
    /// `application/json`, `application/problem+json`, with or without parameters; any case.
    /// Scans bytes: it runs on every response.
    public static func isJSON(_ value: String?) -> Bool {
        guard var value else { return false }
        return value.withUTF8 { bytes in
            var start = 0
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            let type = UnsafeBufferPointer(rebasing: bytes[start..<end])
            func lowercased(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte | 0x20 : byte }
            func hasSuffix(_ suffix: StaticString) -> Bool {
                let count = suffix.utf8CodeUnitCount
                guard type.count >= count else { return false }
                let tail = type.count - count
                return (0..<count).allSatisfy { lowercased(type[tail + $0]) == suffix.utf8Start[$0] }
            }
            if type.count == 16 && hasSuffix("application/json") { return true }
            guard let slash = type.firstIndex(of: UInt8(ascii: "/")), slash > 0 else { return false }
            return type.count - slash > 6 && hasSuffix("+json")
        }
    }

    /// `type/subtype` in lower case, without parameters or the spaces around it: what two
    /// `Content-Type`s are compared by (`application/json; charset=utf-8` is `application/json`).
    /// Scans bytes: the stubs compare one on every request.
    public static func essence(_ value: String) -> String {
        var value = value
        return value.withUTF8 { bytes in
            var start = 0
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            let lowered = bytes[start..<end].map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
            return String(decoding: lowered, as: UTF8.self)
        }
    }

    /// `type/subtype`, each an HTTP token, with parameters after `;` as the sender writes them.
    public static func isValid(_ value: String) -> Bool {
        let parts = essence(value).split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy(FieldSyntax.isToken)
    }
}
