/// A parsed JSON text: its value, its source, where every value and key starts, and repeated keys.
public struct JSONDocument: Sendable {
    /// A key that appears twice in one object; the later value is the one kept.
    public struct DuplicateKey: Sendable, Hashable {
        public var key: String
        /// The pointer of the member (the object's pointer plus the key).
        public var pointer: JSONPointer
        public var location: SourceLocation
        public var firstLocation: SourceLocation
    }

    public let value: JSONValue
    public let source: SourceText
    /// Nil when the parser was asked not to track locations.
    public let sourceMap: JSONSourceMap?
    public let duplicateKeys: [DuplicateKey]

    public init(value: JSONValue, source: SourceText, sourceMap: JSONSourceMap?, duplicateKeys: [DuplicateKey]) {
        self.value = value
        self.source = source
        self.sourceMap = sourceMap
        self.duplicateKeys = duplicateKeys
    }

    /// Where the value at `pointer` starts, or nil when the pointer resolves to nothing.
    public func location(of pointer: JSONPointer) -> SourceLocation? {
        offsets(of: pointer).map { source.location(ofOffset: $0.value) }
    }

    /// Where the key of the member at `pointer` starts; for array elements and the root, where the value starts.
    public func keyLocation(of pointer: JSONPointer) -> SourceLocation? {
        offsets(of: pointer).map { source.location(ofOffset: $0.key ?? $0.value) }
    }

    /// The nearest location for `pointer`: its own, or that of its deepest existing ancestor.
    public func nearestLocation(of pointer: JSONPointer) -> SourceLocation {
        var pointer = pointer
        while true {
            if let location = location(of: pointer) { return location }
            guard let parent = pointer.parent else { return source.location(ofOffset: 0) }
            pointer = parent
        }
    }

    /// The byte offset where the value at `pointer`, or its deepest existing ancestor, starts:
    /// for callers that need no line and column (counting those is linear in the line's length,
    /// which adds up on a one-line document with many places to locate).
    public func nearestOffset(of pointer: JSONPointer) -> Int {
        var pointer = pointer
        while true {
            if let offsets = offsets(of: pointer) { return offsets.value }
            guard let parent = pointer.parent else { return 0 }
            pointer = parent
        }
    }

    private func offsets(of pointer: JSONPointer) -> (key: Int?, value: Int)? {
        guard var map = sourceMap else { return nil }
        var value = self.value
        var keyOffset: Int?
        for token in pointer.tokens {
            switch (value, map) {
            case (.object(let object), .object(_, let members)):
                guard let position = object.position(of: token), position < members.count else { return nil }
                value = object.members[position].value
                keyOffset = members[position].keyOffset
                map = members[position].value
            case (.array(let elements), .array(_, let maps)):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count, index < maps.count else { return nil }
                value = elements[index]
                keyOffset = nil
                map = maps[index]
            default:
                return nil
            }
        }
        return (keyOffset, map.offset)
    }
}
