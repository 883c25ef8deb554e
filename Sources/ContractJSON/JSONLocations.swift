/// Where each value (and each object key) of a parsed document starts, in one flat table of 12
/// bytes a value, against a ``JSONSourceMap`` node and an array for every container. A
/// container's children (an object's members in ``JSONObject`` order, duplicates folded as the
/// value folds them) sit next to one another, so the entry of a pointer is found by one step
/// per token, as the value itself is walked.
///
/// A container whose text repeats an earlier one (``JSONValueSharing``) has no children of its
/// own here: it points to the first one's, whose offsets are shifted by the distance between the
/// two (the same text has its values at the same distances from its start).
struct JSONLocations: Sendable {
    struct Entry: Sendable {
        /// Where the member's key starts; ``noKey`` for array elements and the root.
        var keyOffset: UInt32
        var offset: UInt32
        /// A container's children: the index of the first one's entry (the rest follow it), or,
        /// with ``repeatsText`` set, the index in ``JSONLocations/repeated`` of the earlier
        /// occurrence whose children they are. Unused for a scalar.
        ///
        /// Where the children's offsets were measured from is the container's own offset but for
        /// a repeated text, so it is kept only for those, beside the table: a fourth field in
        /// every entry for them was a quarter of the table (2.4 MB of a 22 MB contract's).
        var children: UInt32

        static let noKey = UInt32.max
        static let repeatsText: UInt32 = 1 << 31
    }

    /// Children blocks, innermost containers first; the root's entry last.
    var entries: Table
    /// For each container that repeats an earlier one's text: where that one starts, and its first child.
    var repeated: [JSONValueSharing.Place]

    /// A place in the table on a walk down from the root: an entry, and how far its stored
    /// offsets are from the occurrence walked (non-zero inside a repeated text).
    struct Step {
        var entry: Entry
        var shift: Int

        var offset: Int { Int(entry.offset) + shift }
        var keyOffset: Int? { entry.keyOffset == Entry.noKey ? nil : Int(entry.keyOffset) + shift }
    }

    var root: Step { Step(entry: entries[entries.count - 1], shift: 0) }

    /// Child `position` (an array index, or a member's position) of the container at `step`.
    func child(_ position: Int, of step: Step) -> Step {
        let link = step.entry.children
        guard link & Entry.repeatsText != 0 else {
            // Its own children, measured from where it starts: the shift is its parent's.
            return Step(entry: entries[Int(link) + position], shift: step.shift)
        }
        let first = repeated[Int(link & ~Entry.repeatsText)]
        return Step(entry: entries[Int(first.firstChild) + position], shift: step.offset - Int(first.offset))
    }

    /// The entries in blocks of a fixed size, filled one after another. One array grown by
    /// doubling held up to twice the entries while the document was read, and then a copy at its
    /// exact size beside it: three times the table at the peak of loading a large contract,
    /// where blocks hold at most one block more than the table.
    struct Table: Sendable {
        static let blockShift = 12
        static let blockSize = 1 << blockShift
        private var blocks: [[Entry]] = []
        private(set) var count = 0

        init() {}

        subscript(index: Int) -> Entry {
            blocks[index >> Self.blockShift][index & (Self.blockSize - 1)]
        }

        mutating func append(_ entry: Entry) {
            startBlockIfFull()
            blocks[blocks.count - 1].append(entry)
            count += 1
        }

        /// A new block where the last one is full. The first grows as an array does: most
        /// documents (a request body, a fixture) need far fewer entries than a block's 64 KB.
        private mutating func startBlockIfFull() {
            guard count & (Self.blockSize - 1) == 0 else { return }
            var block: [Entry] = []
            if !blocks.isEmpty { block.reserveCapacity(Self.blockSize) }
            blocks.append(block)
        }

        /// In runs that fill the last block, a new block started where one is full.
        mutating func append(contentsOf entries: ArraySlice<Entry>) {
            var rest = entries
            while !rest.isEmpty {
                startBlockIfFull()
                let run = rest.prefix(Self.blockSize - count & (Self.blockSize - 1))
                blocks[blocks.count - 1].append(contentsOf: run)
                count += run.count
                rest = rest.dropFirst(run.count)
            }
        }

        /// The last block cut to what it holds: the table is kept as long as its document.
        mutating func trim() {
            guard let last = blocks.indices.last, blocks[last].count < Self.blockSize else { return }
            blocks[last] = blocks[last].withUnsafeBufferPointer { Array($0) }
        }
    }

    /// Whether a document of this size is located: its offsets fit in 32 bits and its entries'
    /// indices below the flag of ``Entry/children``. Larger ones (2 GiB and more) are parsed
    /// without locations.
    static func fits(_ byteCount: Int) -> Bool {
        // A value is at least one byte, so fewer entries than bytes: below the flag of `children`.
        byteCount < Int(Entry.repeatsText)
    }
}

extension JSONLocations {
    /// The tree-shaped map of `value`, for ``JSONDocument/sourceMap``.
    func sourceMap(of value: JSONValue) -> JSONSourceMap {
        func map(_ value: JSONValue, _ step: Step) -> JSONSourceMap {
            switch value {
            case .array(let elements):
                return .array(offset: step.offset, elements: elements.indices.map { map(elements[$0], child($0, of: step)) })
            case .object(let object):
                return .object(offset: step.offset, members: object.members.indices.map {
                    let member = child($0, of: step)
                    return JSONSourceMap.Member(keyOffset: member.keyOffset ?? member.offset, value: map(object.members[$0].value, member))
                })
            default:
                return .scalar(offset: step.offset)
            }
        }
        return map(value, root)
    }
}
