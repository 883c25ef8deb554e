/// Builds a ``JSONValue`` from the grammar's events and, when asked, where each value and key
/// starts (``JSONLocations``) and which keys repeat. Finished values wait on one stack until their
/// container closes, so each array and object is allocated once, at its final size.
struct JSONTreeSink: JSONSink {
    private struct Frame {
        /// Where the container's finished children start on `pending`.
        var start: Int
        var offset: Int
        var isObject: Bool
        /// Member positions by key, once an object has more members than a linear search suits.
        var index: [ByteKey: Int]?
        /// The hash its text is remembered under when it closes, when it is one to share.
        var textHash: UInt64?
        /// Repeated keys found before it opened: one with repeats inside is not shared, since
        /// each occurrence reports its own.
        var duplicatesBefore: Int
        /// The root member's array whose elements go to ``JSONTreeSink/stream`` as they finish.
        var isStreamed = false
    }

    let tracksLocations: Bool
    let sharesValues: Bool
    /// Gives the text's pages back as values are finished, when the parse was given the text
    /// (``JSONParser/parse(taking:)``).
    var release: TextRelease?
    /// Told of the root object's members and of each element of one of its arrays as they are
    /// finished, and keeps what it returns in an element's place
    /// (``JSONParser/parse(taking:placesLater:streaming:)``).
    var stream: (any JSONElementStream)?
    /// What the stream kept of the streamed array's elements, in order: straight in an array of
    /// values (a large contract's cases, 24 bytes each), not on `pending` as members (40, then
    /// copied into an array when it closes).
    private var streamedElements: [JSONValue] = []
    private var sharing = JSONValueSharing()
    private var frames: [Frame] = []
    /// The finished children of the open containers, innermost last (array elements with an
    /// empty key); at the end, the root.
    private var pending: [JSONObject.Member] = []
    /// Where each of `pending` starts, when locations are tracked.
    private var pendingLocations: [JSONLocations.Entry] = []
    /// The children blocks of the closed containers.
    private var table = JSONLocations.Table()
    /// The first occurrence of each container whose text repeats (``JSONLocations/repeated``),
    /// and where each is in that list (its index + 1, 0 for none yet) by its entry in `sharing`.
    private var repeated: [JSONValueSharing.Place] = []
    private var repeatedIndex: [UInt32] = []
    private(set) var duplicates: [PendingDuplicate] = []
    /// Keys found repeated, counted whether or not locations are tracked.
    private(set) var repeatedKeys = 0
    /// A container looked up and not found (``reuse(_:at:)``), which opens next.
    private var unseen: (offset: Int, hash: UInt64)?
    /// Containers looked for at each depth since one was last found. Where none repeat (the cases
    /// of a varied contract) looking ahead costs more than it saves: after ``maxMisses`` in a row,
    /// only one in that many is looked for, in case repeats begin.
    private var missesAtDepth: [Int] = []
    private static let maxMisses = 16

    init(tracksLocations: Bool, sharesValues: Bool) {
        self.tracksLocations = tracksLocations
        self.sharesValues = sharesValues
    }

    /// The document's value and its locations; call once, after the grammar has read it whole.
    mutating func finish() -> (JSONValue, JSONLocations?) {
        // Its copies of texts are of no use after the parse.
        sharing = JSONValueSharing()
        let value = pending.last?.value ?? .null
        guard tracksLocations, let root = pendingLocations.last else { return (value, nil) }
        table.append(root)
        table.trim()
        repeatedIndex = []
        return (value, JSONLocations(entries: table, repeated: repeated.withUnsafeBufferPointer { Array($0) }))
    }

    mutating func mayReuse() -> Bool {
        guard sharesValues else { return false }
        let depth = frames.count
        if depth >= missesAtDepth.count { missesAtDepth.append(contentsOf: repeatElement(0, count: depth + 1 - missesAtDepth.count)) }
        let misses = missesAtDepth[depth]
        guard misses < Self.maxMisses || misses % Self.maxMisses == 0 else {
            missesAtDepth[depth] += 1
            return false
        }
        return true
    }

    mutating func reuse(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        let depth = frames.count
        if JSONValueSharing.containerLengths.contains(text.count) {
            switch sharing.lookUp(text) {
            case .found(let value, let place, let entry):
                missesAtDepth[depth] = 0
                finish(value, at: offset, children: repeatedChildren(place, entry: entry))
                return true
            case .vacant(let hash):
                unseen = (offset, hash)
            case .off:
                break
            }
        }
        missesAtDepth[depth] += 1
        return false
    }

    mutating func beginArray(at offset: Int) -> Int {
        open(at: offset, isObject: false)
        return 0
    }

    mutating func endArray(_ mark: Int, count: Int, text: UnsafeBufferPointer<UInt8>) {
        let frame = frames.removeLast()
        let value: JSONValue
        if frame.isStreamed {
            // Moved, not copied: the array the elements were kept in is the value.
            value = .array(streamedElements)
            streamedElements = []
        } else {
            value = .array(pending[frame.start...].map(\.value))
            pending.removeSubrange(frame.start...)
        }
        close(frame, as: value, text: text)
    }

    mutating func beginObject(at offset: Int) -> Int {
        open(at: offset, isObject: true)
        return 0
    }

    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, inPlace: Bool) {
        // A placeholder the member's value fills in (``finish(_:at:children:)``).
        pending.append(JSONObject.Member(key: makeString(bytes, inPlace: inPlace), value: .null))
        if tracksLocations {
            pendingLocations.append(JSONLocations.Entry(keyOffset: UInt32(truncatingIfNeeded: offset), offset: 0, children: 0))
        }
    }

    mutating func endObject(_ mark: Int, count: Int, text: UnsafeBufferPointer<UInt8>) {
        let frame = frames.removeLast()
        // Copied out at their exact count: `Array(pending[start...])` kept the whole stack's
        // buffer for the outermost object, whose slice is all of it.
        let members = pending.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[frame.start...])) }
        let value = JSONValue.object(JSONObject(uniqueMembers: members, index: frame.index))
        pending.removeSubrange(frame.start...)
        close(frame, as: value, text: text)
    }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, inPlace: Bool) {
        finish(.string(makeString(bytes, inPlace: inPlace)), at: offset, children: 0)
    }

    private mutating func open(at offset: Int, isObject: Bool) {
        let hash = unseen?.offset == offset ? unseen?.hash : nil
        unseen = nil
        // An array that is the value of the streamed root member (its key waits on `pending`).
        let isStreamed = !isObject && frames.count == 1 && frames[0].isObject && stream.map { pending.last?.key == $0.streamedKey } == true
        frames.append(Frame(start: pending.count, offset: offset, isObject: isObject, textHash: hash, duplicatesBefore: duplicates.count, isStreamed: isStreamed))
    }

    /// Whether the innermost open container is the streamed array.
    private var inStreamedArray: Bool { frames.count == 2 && frames[1].isStreamed }

    /// Puts a closed container's value in place and remembers it for its text's next occurrence.
    private mutating func close(_ frame: Frame, as value: JSONValue, text: UnsafeBufferPointer<UInt8>) {
        let firstChild = closeLocations(from: frame.start)
        // A streamed element is let go once the stream has it: the table must not keep it.
        if let hash = frame.textHash, duplicates.count == frame.duplicatesBefore, !inStreamedArray {
            let place = JSONValueSharing.Place(offset: UInt32(truncatingIfNeeded: frame.offset), firstChild: firstChild)
            sharing.remember(text, hash: hash, as: value, at: place)
        }
        finish(value, at: frame.offset, children: firstChild)
    }

    mutating func number(_ number: JSONNumber, at offset: Int) {
        finish(.number(number), at: offset, children: 0)
    }

    mutating func bool(_ value: Bool, at offset: Int) {
        finish(.bool(value), at: offset, children: 0)
    }

    mutating func null(at offset: Int) {
        finish(.null, at: offset, children: 0)
    }

    /// A string or key, shared with an earlier one of the same text when values are shared. A
    /// decoded string (not `inPlace`) is not: its bytes are not the document's. Found by its text
    /// with the quotes, which no array's or object's text can be (a string `"[1]"` is not `[1]`).
    private mutating func makeString(_ bytes: UnsafeBufferPointer<UInt8>, inPlace: Bool) -> String {
        guard sharesValues, inPlace, JSONValueSharing.stringLengths.contains(bytes.count), let start = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let text = UnsafeBufferPointer(start: start - 1, count: bytes.count + 2)
        let lookup = sharing.lookUp(text)
        if case .found(.string(let shared), _, _) = lookup { return shared }
        let string = String(decoding: bytes, as: UTF8.self)
        if case .vacant(let hash) = lookup { sharing.remember(text, hash: hash, as: .string(string), at: JSONValueSharing.Place(offset: 0, firstChild: 0)) }
        return string
    }

    /// The ``JSONLocations/Entry/children`` of a container that repeats the text of the one at
    /// `place`, the sharing table's `entry`: its children are that one's, found through the list
    /// of repeated texts, which has each text once however often it repeats (a large contract
    /// repeats a few in every case).
    private mutating func repeatedChildren(_ place: JSONValueSharing.Place, entry: Int) -> UInt32 {
        guard tracksLocations else { return 0 }
        if entry >= repeatedIndex.count { repeatedIndex += repeatElement(0, count: entry + 1 - repeatedIndex.count) }
        if repeatedIndex[entry] == 0 {
            repeated.append(place)
            repeatedIndex[entry] = UInt32(truncatingIfNeeded: repeated.count)
        }
        return JSONLocations.Entry.repeatsText | (repeatedIndex[entry] - 1)
    }

    /// Moves the locations of a closing container's children into the table; returns where they start.
    private mutating func closeLocations(from start: Int) -> UInt32 {
        guard tracksLocations else { return 0 }
        let first = UInt32(truncatingIfNeeded: table.count)
        table.append(contentsOf: pendingLocations[start...])
        pendingLocations.removeSubrange(start...)
        return first
    }

    /// Puts a finished value in its container: after the elements of an array, or into the
    /// member its key started. A repeated key keeps its first position and its last value (as
    /// ECMAScript does), and is reported.
    /// - Parameter children: the entry's ``JSONLocations/Entry/children``; 0 for a scalar.
    private mutating func finish(_ value: JSONValue, at offset: Int, children: UInt32) {
        // Every value ends here, after its own bytes were read: the place to give back what
        // lies well behind it.
        if var release, offset >= release.next {
            release.pass(offset)
            self.release = release
        }
        if let stream {
            if inStreamedArray {
                streamedElements.append(stream.element(value, at: streamedElements.count, offset: offset))
                return
            } else if frames.count == 1, frames[0].isObject, let key = pending.last?.key {
                stream.member(key, value)
            }
        }
        let location = JSONLocations.Entry(keyOffset: JSONLocations.Entry.noKey, offset: UInt32(truncatingIfNeeded: offset), children: children)
        guard let top = frames.indices.last, frames[top].isObject else {
            pending.append(JSONObject.Member(key: "", value: value))
            if tracksLocations { pendingLocations.append(location) }
            return
        }
        let last = pending.count - 1
        guard let existing = Self.position(of: pending[last].key, among: pending, in: frames[top], before: last) else {
            pending[last].value = value
            if tracksLocations {
                pendingLocations[last].offset = location.offset
                pendingLocations[last].children = children
            }
            index(last, in: top)
            return
        }
        repeatedKeys += 1
        if tracksLocations {
            let keyOffset = pendingLocations[last].keyOffset
            duplicates.append(PendingDuplicate(
                pointer: JSONPointer(tokens: path() + [pending[last].key]), offset: Int(keyOffset),
                firstOffset: Int(pendingLocations[existing].keyOffset)))
            pendingLocations[existing] = JSONLocations.Entry(keyOffset: keyOffset, offset: location.offset, children: children)
            pendingLocations.removeLast()
        }
        pending[existing].value = value
        pending.removeLast()
    }

    /// Where `key` already is among the members of the object `frame`. (Static: a method on the
    /// sink copied the whole sink at every member.)
    private static func position(of key: String, among pending: [JSONObject.Member], in frame: Frame, before end: Int) -> Int? {
        if let index = frame.index { return index[ByteKey(key)].map { frame.start + $0 } }
        for position in frame.start..<end where ByteComparison.equal(pending[position].key, key) { return position }
        return nil
    }

    /// Records the new member at `position` in its object's index, made once the object outgrows
    /// a linear search (the same size at which ``JSONObject`` keeps one).
    private mutating func index(_ position: Int, in level: Int) {
        let start = frames[level].start
        if frames[level].index != nil {
            frames[level].index?[ByteKey(pending[position].key)] = position - start
        } else if position - start + 1 > JSONObject.indexThreshold {
            var index = [ByteKey: Int](minimumCapacity: 2 * (position - start + 1))
            for member in start...position { index[ByteKey(pending[member].key)] = member - start }
            frames[level].index = index
        }
    }

    /// The tokens of the innermost open container: a key, or an element's index, per level.
    private func path() -> [String] {
        frames.indices.dropFirst().map { level in
            let parent = frames[level - 1]
            let start = frames[level].start
            return parent.isObject ? pending[start - 1].key : String(start - parent.start)
        }
    }
}

/// A repeated key, before its offsets are turned into lines and columns.
struct PendingDuplicate {
    var pointer: JSONPointer
    var offset: Int
    var firstOffset: Int
}
