import ContractJSON

/// Read access to a ``JSONTape`` during one validation, through raw buffers: no reference
/// counting per value. Valid only inside ``TapeView/with(_:_:)``.
struct TapeView {
    typealias Kind = JSONTape.Kind

    let entries: UnsafeBufferPointer<JSONTape.Entry>
    let bytes: UnsafeBufferPointer<UInt8>
    let numbers: UnsafeBufferPointer<JSONNumber>
    let scaledNumbers: UnsafeBufferPointer<(significand: Int64, exponent: Int)?>

    static func with<Result>(_ tape: JSONTape, _ body: (TapeView) -> Result) -> Result {
        tape.entries.withUnsafeBufferPointer { entries in
            tape.bytes.withUnsafeBufferPointer { bytes in
                tape.numbers.withUnsafeBufferPointer { numbers in
                    tape.scaledNumbers.withUnsafeBufferPointer { scaled in
                        body(TapeView(entries: entries, bytes: bytes, numbers: numbers, scaledNumbers: scaled))
                    }
                }
            }
        }
    }

    @inline(__always) func kind(_ index: Int) -> Kind { entries[index].kind }
    @inline(__always) func count(_ index: Int) -> Int { Int(entries[index].count) }
    @inline(__always) func end(_ index: Int) -> Int { Int(entries[index].end) }

    func number(_ index: Int) -> JSONNumber { numbers[Int(entries[index].payload)] }

    /// The number at `index` as a 64-bit significand and a power of ten, when it fits.
    @inline(__always) func scaled(_ index: Int) -> (significand: Int64, exponent: Int)? { scaledNumbers[Int(entries[index].payload)] }

    /// Whether the number at `index` is an integer (`1.0` is one).
    func isInteger(_ index: Int) -> Bool {
        if let scaled = scaled(index) { return scaled.exponent >= 0 }
        return number(index).isInteger
    }

    /// The UTF-8 bytes of the string at `index`.
    @inline(__always) func utf8(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entries[index]
        // The tape's strings lie within its bytes (its builder's invariant), so no slice bounds are checked.
        return UnsafeBufferPointer(start: bytes.baseAddress?.advanced(by: Int(entry.payload)), count: Int(entry.count))
    }

    func string(_ index: Int) -> String { String(decoding: utf8(index), as: UTF8.self) }

    /// The value at `index` rebuilt as a ``JSONValue``, for messages and rare keywords.
    func value(_ index: Int) -> JSONValue {
        switch kind(index) {
        case .null: return .null
        case .bool: return .bool(entries[index].flag)
        case .number: return .number(number(index))
        case .string: return .string(string(index))
        case .array:
            var elements: [JSONValue] = []
            var child = index + 1
            for _ in 0..<count(index) {
                elements.append(value(child))
                child = end(child)
            }
            return .array(elements)
        case .object:
            var members: [JSONObject.Member] = []
            var child = index + 1
            for _ in 0..<count(index) {
                members.append(JSONObject.Member(key: string(child), value: value(child + 1)))
                child = end(child + 1)
            }
            return .object(JSONObject(members))
        }
    }

    /// Whether the value at `index` has one of `types` (`1.0` counts as an integer).
    func matches(_ types: JSONTypeSet, _ index: Int) -> Bool {
        switch kind(index) {
        case .null: types.contains(.null)
        case .bool: types.contains(.boolean)
        case .string: types.contains(.string)
        case .array: types.contains(.array)
        case .object: types.contains(.object)
        case .number: types.contains(.number) || (types.contains(.integer) && isInteger(index))
        }
    }

    /// JSON equality with a schema's value (`enum`, `const`), without rebuilding the instance.
    func equals(_ index: Int, _ value: JSONValue) -> Bool {
        switch value {
        case .null: return kind(index) == .null
        case .bool(let flag): return kind(index) == .bool && entries[index].flag == flag
        case .number(let number): return kind(index) == .number && self.number(index) == number
        case .string(let string): return kind(index) == .string && Self.same(utf8(index), string)
        case .array(let elements):
            guard kind(index) == .array, count(index) == elements.count else { return false }
            var child = index + 1
            for element in elements {
                guard equals(child, element) else { return false }
                child = end(child)
            }
            return true
        case .object(let object):
            guard kind(index) == .object else { return false }
            // The tape keeps every member of a repeated name; a value keeps the last.
            if hasRepeatedNames(index) { return self.value(index) == .object(object) }
            guard count(index) == object.count else { return false }
            var child = index + 1
            for _ in 0..<count(index) {
                guard let expected = object[string(child)], equals(child + 1, expected) else { return false }
                child = end(child + 1)
            }
            return true
        }
    }

    /// Byte equality of a tape string and a Swift string (JSON compares code points, not canonical forms).
    @inline(__always) static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ string: String) -> Bool {
        guard bytes.count == string.utf8.count else { return false }
        return string.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(bytes) } ?? string.utf8.elementsEqual(bytes)
    }
}
