/// JSON Pointer (RFC 6901) and Relative JSON Pointer (draft-bhutton-relative-json-pointer).
enum PointerFormats {
    static func isJSONPointer(_ value: String) -> Bool {
        isJSONPointer(Array(value.utf8)[...])
    }

    static func isJSONPointer(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        guard first == UInt8(ascii: "/") else { return false }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "~") {
                let next = index + 1
                guard next < bytes.endIndex, bytes[next] == UInt8(ascii: "0") || bytes[next] == UInt8(ascii: "1") else { return false }
            }
            index += 1
        }
        return true
    }

    /// A non-negative integer (no leading zero), an optional index adjustment (`+1`, `-2`), then `#`
    /// or a JSON Pointer.
    static func isRelativeJSONPointer(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        var index = 0
        guard index < bytes.count, ASCII.isDigit(bytes[index]) else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard index < bytes.count, ASCII.isDigit(bytes[index]), bytes[index] != UInt8(ascii: "0") || index + 1 == bytes.count
                || !ASCII.isDigit(bytes[index + 1])
            else { return false }
            while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "#") { return index + 1 == bytes.count }
        return isJSONPointer(bytes[index...])
    }
}
