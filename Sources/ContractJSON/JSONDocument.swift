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

    /// Where values start: the parser's flat table, a map a caller made, or the text read again
    /// and parsed with its table when a place is first asked for.
    private enum Places: Sendable {
        case table(JSONLocations)
        case map(JSONSourceMap)
        case deferred(any JSONPlaceSource)
    }

    public let value: JSONValue
    /// The text, or where its lines end; empty for a document whose places are deferred (the
    /// parse that places them has its own).
    public let source: SourceText
    public let duplicateKeys: [DuplicateKey]
    /// Keys the parse found repeated, when it kept no places to report them by
    /// (``JSONParser/parse(taking:placesLater:)``): nonzero means ``duplicateKeys`` is to be had
    /// from the parse that places them.
    public let unplacedDuplicateKeys: Int
    private let places: Places?

    public init(value: JSONValue, source: SourceText, sourceMap: JSONSourceMap?, duplicateKeys: [DuplicateKey]) {
        self.value = value
        self.source = source
        places = sourceMap.map(Places.map)
        self.duplicateKeys = duplicateKeys
        unplacedDuplicateKeys = 0
    }

    init(value: JSONValue, source: SourceText, locations: JSONLocations?, duplicateKeys: [DuplicateKey]) {
        self.value = value
        self.source = source
        places = locations.map(Places.table)
        self.duplicateKeys = duplicateKeys
        unplacedDuplicateKeys = 0
    }

    /// A document whose places `placeSource` gives: the value need not be the whole text's (a
    /// document whose parse kept only part of it, or none yet); places are found in the text's.
    public init(value: JSONValue, placesLater placeSource: any JSONPlaceSource, unplacedDuplicateKeys: Int = 0) {
        self.value = value
        source = SourceText([], indexLines: false)
        places = .deferred(placeSource)
        duplicateKeys = []
        self.unplacedDuplicateKeys = unplacedDuplicateKeys
    }

    /// Where every value and key starts, shaped like the value; nil when the parser was asked
    /// not to track locations. Built on each call (the parser keeps a flat table, a fraction of
    /// the size): ``location(of:)`` and its siblings are the way to ask.
    public var sourceMap: JSONSourceMap? {
        switch places {
        case .table(let table): table.sourceMap(of: value)
        case .map(let map): map
        case .deferred(let placeSource): placeSource.placedDocument()?.sourceMap
        case nil: nil
        }
    }

    /// The document that holds this one's places and lines: itself, or for deferred places the
    /// parse of the whole text that placed them (this one's value may hold only part of it).
    private var placing: JSONDocument? {
        guard case .deferred(let placeSource) = places else { return self }
        return placeSource.placedDocument()
    }

    /// Where the value at `pointer` starts, or nil when the pointer resolves to nothing (or its
    /// places were deferred and the text can no longer be read as it was).
    public func location(of pointer: JSONPointer) -> SourceLocation? {
        guard let placing else { return nil }
        return placing.offsets(of: pointer).map { placing.source.location(ofOffset: $0.value) }
    }

    /// Where the key of the member at `pointer` starts; for array elements and the root, where the value starts.
    public func keyLocation(of pointer: JSONPointer) -> SourceLocation? {
        guard let placing else { return nil }
        return placing.offsets(of: pointer).map { placing.source.location(ofOffset: $0.key ?? $0.value) }
    }

    /// The nearest location for `pointer`: its own, or that of its deepest existing ancestor; nil
    /// only where the document's places cannot be had (deferred places whose text is no longer
    /// what was parsed): no place rather than a wrong one.
    public func nearestLocation(of pointer: JSONPointer) -> SourceLocation? {
        guard let placing else { return nil }
        var pointer = pointer
        while true {
            if let location = placing.location(of: pointer) { return location }
            guard let parent = pointer.parent else { return placing.source.location(ofOffset: 0) }
            pointer = parent
        }
    }

    /// The byte offset where the value at `pointer`, or its deepest existing ancestor, starts:
    /// for callers that need no line and column (counting those is linear in the line's length,
    /// which adds up on a one-line document with many places to locate).
    public func nearestOffset(of pointer: JSONPointer) -> Int {
        if case .deferred = places { return placing?.nearestOffset(of: pointer) ?? 0 }
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
        case .deferred, nil: nil
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

/// Where a document's places come from when its parse kept none
/// (``JSONParser/parse(taking:placesLater:)``): its text, read again, and that text parsed with
/// them, made the first time a place is asked for (a diagnostic) and kept for the next.
public protocol JSONPlaceSource: Sendable {
    /// The text the document was parsed from, read again; nil when it cannot be, or is no longer
    /// what was parsed.
    func text() -> [UInt8]?
    /// The text parsed again whole, with its places; nil as for ``text()`` or when it no longer
    /// parses.
    func placedDocument() -> JSONDocument?
}
