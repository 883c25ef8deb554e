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

    /// Where values start: the parser's flat table, or a map a caller made.
    private enum Places: Sendable {
        case table(JSONLocations)
        case map(JSONSourceMap)
    }

    public let value: JSONValue
    public let source: SourceText
    public let duplicateKeys: [DuplicateKey]
    private let places: Places?

    public init(value: JSONValue, source: SourceText, sourceMap: JSONSourceMap?, duplicateKeys: [DuplicateKey]) {
        self.value = value
        self.source = source
        places = sourceMap.map(Places.map)
        self.duplicateKeys = duplicateKeys
    }

    init(value: JSONValue, source: SourceText, locations: JSONLocations?, duplicateKeys: [DuplicateKey]) {
        self.value = value
        self.source = source
        places = locations.map(Places.table)
        self.duplicateKeys = duplicateKeys
    }

    /// Where every value and key starts, shaped like the value; nil when the parser was asked
    /// not to track locations. Built on each call (the parser keeps a flat table, a fraction of
    /// the size): ``location(of:)`` and its siblings are the way to ask.
    public var sourceMap: JSONSourceMap? {
        switch places {
        case .table(let table): table.sourceMap(of: value)
        case .map(let map): map
        case nil: nil
        }
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
        switch places {
        case .table(let table): offsets(of: pointer, in: table)
        case .map(let map): offsets(of: pointer, in: map)
        case nil: nil
        }
    }

    private func offsets(of pointer: JSONPointer, in table: JSONLocations) -> (key: Int?, value: Int)? {
        var value = self.value
        var step = table.root
        for token in pointer.tokens {
            switch value {
            case .object(let object):
                guard let position = object.position(of: token) else { return nil }
                value = object.members[position].value
                step = table.child(position, of: step)
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                value = elements[index]
                step = table.child(index, of: step)
            default:
                return nil
            }
        }
        return (step.keyOffset, step.offset)
    }

    private func offsets(of pointer: JSONPointer, in map: JSONSourceMap) -> (key: Int?, value: Int)? {
        var map = map
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
