/// Keeps one copy of each value a document writes more than once: a later occurrence of the same
/// text shares the first one's storage, and a container's text is not even read again (the
/// grammar takes it whole, ``JSONSink/reuse(_:at:)``). Contracts repeat themselves (the same
/// `$ref`, header matcher, status and error body in case after case), and a large one held its
/// tree at many times its text's size. Values are immutable, so sharing is invisible except in
/// memory and time; locations are kept per occurrence (``JSONLocations``).
///
/// Values are found by their text (a string's with its quotes, a container's from bracket to
/// bracket, so the two never mix): the same bytes always parse to the same value, and comparing
/// bytes needs no walk of the values. Each text remembered is a copy (``TextArena``): the document's
/// own pages may be given back while it is parsed (``TextRelease``).
struct JSONValueSharing {
    /// Longer containers and strings seldom repeat; strings of 15 bytes or fewer are stored
    /// inline in a `String` anyway, and the smallest containers cost less to read than to find.
    static let containerLengths = 4...4096
    static let stringLengths = 16...1024

    /// Where a container's first occurrence is: its offset, and where its children's locations are.
    struct Place {
        var offset: UInt32
        var firstChild: UInt32
    }

    private struct Entry {
        var text: UnsafeBufferPointer<UInt8>
        var hash: UInt64
        var value: JSONValue
        var place: Place
    }

    /// Open addressing: each slot holds an entry's index + 1 (0 when empty) and its hash's high bits.
    private var slots: [(index: UInt32, tag: UInt32)] = []
    private var entries: [Entry] = []
    private var arena = TextArena()
    /// Texts remembered at most: what repeats in a contract (a `$ref`, a header matcher, an
    /// error body) is met early and met again and again; a document of mostly different texts
    /// (the cases of a varied contract) filled the table with texts never seen twice, 7 MB of
    /// entries for a 22 MB contract, held while it was parsed. Later texts are read as usual.
    /// 4,096 keeps what repeats (it is met in the first cases) and, once cases are decoded as they
    /// are parsed, held the varied contract's lint peak 73,688 -> 67,368 KiB (32,768 texts and
    /// their copies outweighed the cases being decoded).
    static let maxEntries = 1 << 12
    /// A lookup gives up after this many probes (the value is then built as usual).
    private static let maxProbes = 32

    /// What a lookup found: the value read before from the same text, or the hash to remember a
    /// new one under (``remember(_:hash:as:at:)``); `off` when probing gave up or nothing was looked up.
    enum Lookup {
        /// `entry` numbers the text among those remembered, from 0 (below ``maxEntries``).
        case found(JSONValue, Place, entry: Int)
        case vacant(hash: UInt64)
        case off
    }

    mutating func lookUp(_ text: UnsafeBufferPointer<UInt8>) -> Lookup {
        if slots.isEmpty { grow() }
        let hash = Self.hash(text)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        for _ in 0..<Self.maxProbes {
            let (index, slotTag) = slots[slot]
            if index == 0 { return .vacant(hash: hash) }
            let entry = entries[Int(index) - 1]
            if slotTag == tag, ByteComparison.equal(entry.text, text) { return .found(entry.value, entry.place, entry: Int(index) - 1) }
            slot = (slot + 1) & mask
        }
        return .off
    }

    /// Records the value of a text a lookup did not find (nothing else of the same text can have
    /// been recorded since: a text does not hold itself).
    mutating func remember(_ text: UnsafeBufferPointer<UInt8>, hash: UInt64, as value: JSONValue, at place: Place) {
        guard entries.count < Self.maxEntries, let copy = arena.copy(text) else { return }
        if (entries.count + 1) * 2 > slots.count { grow() }
        entries.append(Entry(text: copy, hash: hash, value: value, place: place))
        insert(entries.count - 1)
    }

    private mutating func insert(_ position: Int) {
        let hash = entries[position].hash
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot].index != 0 { slot = (slot + 1) & mask }
        slots[slot] = (UInt32(position + 1), UInt32(truncatingIfNeeded: hash >> 32))
    }

    private mutating func grow() {
        slots = Array(repeating: (0, 0), count: max(1024, slots.count * 2))
        for position in entries.indices { insert(position) }
    }

    /// A fast 64-bit hash of bytes, eight at a time (not for adversaries: probing is bounded).
    private static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(text.count)
        var index = 0
        if let base = text.baseAddress {
            while index + 8 <= text.count {
                hash = mix(hash ^ UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
                index += 8
            }
        }
        var tail: UInt64 = 0
        for byte in text[index...] { tail = tail << 8 | UInt64(byte) }
        return mix(hash ^ tail)
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// The remembered texts' copies, in blocks that never move. At most ``limit`` bytes: what
/// repeats in a contract is small and met early (a `$ref`, a header matcher, an error body); a
/// table full of texts never seen twice (a varied contract's cases, one looked for in sixteen)
/// stops remembering, as it does at ``JSONValueSharing/maxEntries``.
private final class TextArena {
    private var blocks: [UnsafeMutableRawBufferPointer] = []
    private var used = 0
    private var total = 0
    static let blockSize = 1 << 16
    static let limit = 8 << 20

    /// A copy of `text` that lives as long as the arena; nil once the arena is full.
    func copy(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard total + text.count <= Self.limit, text.count <= Self.blockSize else { return nil }
        if blocks.isEmpty || used + text.count > Self.blockSize {
            blocks.append(UnsafeMutableRawBufferPointer.allocate(byteCount: Self.blockSize, alignment: 8))
            used = 0
        }
        guard let block = blocks.last, let base = block.baseAddress else { return nil }
        let start = (base + used).assumingMemoryBound(to: UInt8.self)
        if let source = text.baseAddress { start.update(from: source, count: text.count) }
        used += text.count
        total += text.count
        return UnsafeBufferPointer(start: start, count: text.count)
    }

    deinit {
        for block in blocks { block.deallocate() }
    }
}
