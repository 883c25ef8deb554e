/// The first case of each name fold (names equal once case is folded, as file systems that ignore
/// case fold them), by the case's position in the contract's `cases`: for the duplicate check
/// while decoding.
///
/// A slot is 8 bytes, 32 bits of the fold's hash and the position, and the table is made once at
/// the size the cases array can reach: a `[String: Int]` keyed by folded name held 24 bytes a
/// bucket at up to twice the buckets, about 0.2 times a large contract's text at the peak of
/// loading. The folded name is not kept; on a hash match it is made again from the case's name
/// (`foldOf`), which happens only for a repeated name or a rare 32-bit collision.
struct CaseNameFolds {
    /// Zero for an empty slot; else the hash in the high half and the position plus one in the low.
    private var slots: [UInt64]
    private var count = 0

    /// Room for `capacity` positions without growing (at most three slots in four used).
    init(capacity: Int) {
        slots = Array(repeating: 0, count: Self.slotCount(for: capacity))
    }

    /// The position of the first case whose fold is `fold`; `foldOf` gives a stored position's fold.
    func position(of fold: String, foldOf: (Int) -> String) -> Int? {
        let hash = Self.hash(fold)
        var slot = Self.start(hash, slots.count)
        while slots[slot] != 0 {
            let entry = slots[slot]
            let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
            if UInt32(truncatingIfNeeded: entry >> 32) == hash, foldOf(position) == fold { return position }
            slot = slot + 1 == slots.count ? 0 : slot + 1
        }
        return nil
    }

    /// Records `position` as the first case of `fold`, which ``position(of:foldOf:)`` did not find.
    mutating func insert(_ fold: String, at position: Int) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        place(UInt64(Self.hash(fold)) << 32 | UInt64(UInt32(truncatingIfNeeded: position + 1)))
        count += 1
    }

    private mutating func place(_ entry: UInt64) {
        var slot = Self.start(UInt32(truncatingIfNeeded: entry >> 32), slots.count)
        while slots[slot] != 0 { slot = slot + 1 == slots.count ? 0 : slot + 1 }
        slots[slot] = entry
    }

    /// Twice the slots, placed again from their stored hashes (no fold is made again). The loader
    /// sizes the table for every case, so it does not grow there; this keeps the table correct
    /// for any other caller (`CaseNameFoldsTests`).
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        for entry in old where entry != 0 { place(entry) }
    }

    /// Slots for `capacity` entries at most three in four full, and at least one always empty.
    private static func slotCount(for capacity: Int) -> Int {
        max(8, capacity + capacity / 3 + 1)
    }

    private static func hash(_ fold: String) -> UInt32 {
        UInt32(truncatingIfNeeded: fold.hashValue)
    }

    private static func start(_ hash: UInt32, _ count: Int) -> Int {
        Int(hash % UInt32(truncatingIfNeeded: count))
    }
}
