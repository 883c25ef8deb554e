/// The members of a JSON object, in document order, with fast lookup by key.
///
/// Keys are unique: when a document repeats a key, the parser keeps the last value
/// (as ECMAScript does) at the position of the first occurrence, and reports the repetition.
public struct JSONObject: Sendable {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Objects up to this size are searched linearly; larger ones get a hash index.
    static let indexThreshold = 12

    public private(set) var members: [Member]
    private var index: [ByteKey: Int]?

    public init() {
        members = []
    }

    /// Creates an object from members; a repeated key keeps its first position and its last value.
    public init(_ members: [Member]) {
        self.init()
        for member in members {
            self[member.key] = member.value
        }
    }

    /// Members whose keys are known to differ (the parser checks as it reads), with the index
    /// the parser built for them when there are more than ``indexThreshold``.
    init(uniqueMembers: [Member], index: [ByteKey: Int]?) {
        members = uniqueMembers
        self.index = uniqueMembers.count > Self.indexThreshold ? index : nil
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    /// The position of `key` in document order, if present.
    public func position(of key: String) -> Int? {
        if let index { return index[ByteKey(key)] }
        for position in members.indices where ByteComparison.equal(members[position].key, key) { return position }
        return nil
    }

    /// Whether the object has `key`, without copying its value.
    public func contains(_ key: String) -> Bool {
        position(of: key) != nil
    }

    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].value
        }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
                if index != nil {
                    index?[ByteKey(key)] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built = [ByteKey: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() {
            built[ByteKey(member.key)] = position
        }
        index = built
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }
}

extension JSONObject: Hashable {
    /// Objects are equal when they have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Order-independent, to agree with `==`.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(ByteKey(member.key))
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

/// A member name compared by its UTF-8 bytes. JSON names are sequences of code points (RFC 8259
/// §8.3): `"é"` written as one code point and as `e` with a combining accent are two names, which
/// Swift's `String` equality (canonical equivalence) would make one, dropping a member.
package struct ByteKey: Hashable {
    package let text: String

    package init(_ text: String) {
        self.text = text
    }

    package static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
        ByteComparison.equal(lhs.text, rhs.text)
    }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
