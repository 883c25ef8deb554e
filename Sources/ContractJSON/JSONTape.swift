/// A JSON value laid out flat: one entry per value (and per object key) in document order,
/// strings in one byte buffer, numbers in one array. Walking it needs no reference counting,
/// which is what makes validating many documents fast.
///
/// Layout: an array entry is followed by its elements; an object entry by key, value, key,
/// value…; every entry knows where its subtree ends, so siblings are found by a jump.
public struct JSONTape: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        case null, bool, number, string, array, object
    }

    public struct Entry: Sendable, Equatable {
        public var kind: Kind
        /// The value of a boolean.
        public var flag: Bool
        /// Elements of an array, members of an object, UTF-8 length of a string.
        public var count: Int32
        /// The index just past this value's subtree.
        public var end: Int32
        /// Byte offset of a string, index of a number.
        public var payload: Int32
    }

    public internal(set) var entries: [Entry] = []
    /// The bytes of strings and keys (an entry's `payload` and `count`), possibly among others:
    /// a parsed tape keeps its whole text here.
    public internal(set) var bytes: [UInt8] = []
    public internal(set) var numbers: [JSONNumber] = []
    /// Each number of `numbers` as `JSONNumber.scaled`, precomputed: comparing these needs no
    /// reference counting or digit parsing, and most numbers in API responses fit.
    public internal(set) var scaledNumbers: [(significand: Int64, exponent: Int)?] = []

    public init(_ value: JSONValue) {
        append(value)
    }

    /// An empty tape, filled by the parser (``JSONParser/parseTape(_:)``).
    init() {}

    /// Equal when they hold the same values laid out the same way. Where a string's bytes sit
    /// does not matter: a parsed tape reads them in the text it was parsed from.
    public static func == (lhs: JSONTape, rhs: JSONTape) -> Bool {
        guard lhs.entries.count == rhs.entries.count, lhs.numbers == rhs.numbers else { return false }
        for index in lhs.entries.indices {
            let left = lhs.entries[index]
            let right = rhs.entries[index]
            guard left.kind == right.kind, left.flag == right.flag, left.count == right.count, left.end == right.end else { return false }
            if left.kind == .string {
                guard lhs.stringBytes(at: index).elementsEqual(rhs.stringBytes(at: index)) else { return false }
            } else if left.payload != right.payload {
                return false
            }
        }
        return true
    }

    /// The UTF-8 bytes of the string (or key) at `index`.
    func stringBytes(at index: Int) -> ArraySlice<UInt8> {
        let entry = entries[index]
        return bytes[Int(entry.payload)..<Int(entry.payload + entry.count)]
    }

    mutating func appendNumber(_ number: JSONNumber) {
        entries.append(Entry(kind: .number, flag: false, count: 0, end: Int32(entries.count + 1), payload: Int32(numbers.count)))
        numbers.append(number)
        scaledNumbers.append(number.scaled)
    }

    private mutating func append(_ value: JSONValue) {
        let index = entries.count
        switch value {
        case .null:
            entries.append(Entry(kind: .null, flag: false, count: 0, end: Int32(index + 1), payload: 0))
        case .bool(let flag):
            entries.append(Entry(kind: .bool, flag: flag, count: 0, end: Int32(index + 1), payload: 0))
        case .number(let number):
            appendNumber(number)
        case .string(let string):
            appendString(string)
        case .array(let elements):
            entries.append(Entry(kind: .array, flag: false, count: Int32(elements.count), end: 0, payload: 0))
            for element in elements { append(element) }
            entries[index].end = Int32(entries.count)
        case .object(let object):
            entries.append(Entry(kind: .object, flag: false, count: Int32(object.count), end: 0, payload: 0))
            for member in object {
                appendString(member.key)
                append(member.value)
            }
            entries[index].end = Int32(entries.count)
        }
    }

    private mutating func appendString(_ string: String) {
        let offset = bytes.count
        bytes.append(contentsOf: string.utf8)
        entries.append(Entry(kind: .string, flag: false, count: Int32(bytes.count - offset), end: Int32(entries.count + 1), payload: Int32(offset)))
    }

    /// The value at `index`, rebuilt as a ``JSONValue`` (for messages and rare keywords).
    public func value(at index: Int) -> JSONValue {
        let entry = entries[index]
        switch entry.kind {
        case .null: return .null
        case .bool: return .bool(entry.flag)
        case .number: return .number(numbers[Int(entry.payload)])
        case .string: return .string(string(at: index))
        case .array:
            var elements: [JSONValue] = []
            var child = index + 1
            for _ in 0..<entry.count {
                elements.append(value(at: child))
                child = Int(entries[child].end)
            }
            return .array(elements)
        case .object:
            var members: [JSONObject.Member] = []
            var child = index + 1
            for _ in 0..<entry.count {
                let key = string(at: child)
                members.append(JSONObject.Member(key: key, value: value(at: child + 1)))
                child = Int(entries[child + 1].end)
            }
            return .object(JSONObject(members))
        }
    }

    public func string(at index: Int) -> String {
        String(decoding: stringBytes(at: index), as: UTF8.self)
    }
}
