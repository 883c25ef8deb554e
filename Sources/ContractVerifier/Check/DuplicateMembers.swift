import ContractJSON

/// Member names repeated within one object of a JSON body (`{"token": "x", "token": "y"}`).
/// RFC 8259 §4 says names SHOULD be unique and I-JSON (RFC 7493 §2.3) that they MUST: parsers
/// disagree on which value wins (the first, the last, an error), so a client may read a value the
/// schema check never saw.
///
/// Names are compared as RFC 8259 §8.3 says, code unit by code unit after escapes are decoded:
/// `"a"` and `"\u0061"` are one name; `"é"` and `"e\u0301"` (the same text, normalized
/// differently) are two. This is why the check walks the tape's decoded key bytes rather than
/// using `JSONDocument.duplicateKeys`, whose keys compare as Swift strings (canonical
/// equivalence), and which costs a parse with locations on every body.
///
/// The common case, no repeated name, costs one walk of the tape the schema check parses anyway;
/// only a body with repeats is scanned again for where each key starts.
struct DuplicateMembers {
    /// One name repeated in one object.
    struct Repeat {
        /// The object's pointer with the name appended: where the member is.
        var pointer: JSONPointer
        var name: String
        /// For each occurrence, in document order: the key's ordinal among all keys of the body
        /// (document order) and the tape index of its value.
        var occurrences: [(keyOrdinal: Int, value: Int)]
    }

    /// Names listed one finding each; the rest are counted in one more.
    static let maxListed = 10
    /// Objects with more members than this get a hash index; smaller ones are compared pairwise.
    static let pairwiseLimit = 16

    let tape: JSONTape
    private(set) var repeats: [Repeat] = []
    /// Repeated names not kept in `repeats`.
    private(set) var omitted = 0
    private var keyOrdinal = 0
    /// The tape indices of the keys (for members) and the element indices (for arrays) down to
    /// the value being walked: turned into a pointer only when a repeat is found there.
    private var path: [PathStep] = []

    private enum PathStep {
        case key(Int)
        case element(Int)
    }

    /// The repeated names of `tape`, in document order of their second occurrence's object.
    static func find(in tape: JSONTape) -> DuplicateMembers {
        var finder = DuplicateMembers(tape: tape)
        // Nearly every body has no repeat: find that out in one pass over raw buffers, with no
        // path, ordinal or allocation; only a body with one is walked for where its repeats are.
        guard hasRepeatedName(tape) else { return finder }
        finder.walk(0)
        // The walk meets an object's repeats after those of the objects inside it.
        finder.repeats.sort { $0.occurrences[1].keyOrdinal < $1.occurrences[1].keyOrdinal }
        return finder
    }

    /// Whether any object of `tape` has a name twice: every object in entry order (no recursion).
    static func hasRepeatedName(_ tape: JSONTape) -> Bool {
        tape.entries.withUnsafeBufferPointer { entries in
            tape.bytes.withUnsafeBufferPointer { bytes in
                entries.indices.contains { entries[$0].kind == .object && hasRepeat(inObjectAt: $0, tape, entries, bytes) }
            }
        }
    }

    /// Whether the object at `index` has a name twice: its keys compared pairwise when it is
    /// small (nearly all are), through a set when it is large.
    private static func hasRepeat(
        inObjectAt index: Int, _ tape: JSONTape, _ entries: UnsafeBufferPointer<JSONTape.Entry>, _ bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let count = Int(entries[index].count)
        guard count > 1 else { return false }
        if count > pairwiseLimit {
            var seen = Set<ArraySlice<UInt8>>(minimumCapacity: count)
            var key = index + 1
            for _ in 0..<count {
                let entry = entries[key]
                if !seen.insert(tape.bytes[Int(entry.payload)..<Int(entry.payload + entry.count)]).inserted { return true }
                key = Int(entries[key + 1].end)
            }
            return false
        }
        func same(_ a: JSONTape.Entry, _ b: JSONTape.Entry) -> Bool {
            guard a.count == b.count else { return false }
            let (x, y) = (Int(a.payload), Int(b.payload))
            for offset in 0..<Int(a.count) where bytes[x + offset] != bytes[y + offset] { return false }
            return true
        }
        var key = index + 1
        for member in 0..<count {
            let entry = entries[key]
            var other = index + 1
            for _ in 0..<member {
                if same(entries[other], entry) { return true }
                other = Int(entries[other + 1].end)
            }
            key = Int(entries[key + 1].end)
        }
        return false
    }

    /// Walks a body known to have repeats, keeping the path and each key's ordinal.
    private mutating func walk(_ index: Int) {
        let entry = tape.entries[index]
        switch entry.kind {
        case .array:
            var child = index + 1
            for element in 0..<Int(entry.count) {
                // Scalars have nothing to walk: skip the push and pop for them.
                let kind = tape.entries[child].kind
                if kind == .array || kind == .object {
                    path.append(.element(element))
                    walk(child)
                    path.removeLast()
                }
                child = Int(tape.entries[child].end)
            }
        case .object:
            let firstOrdinal = keyOrdinal
            var child = index + 1
            for _ in 0..<Int(entry.count) {
                keyOrdinal += 1
                let value = child + 1
                let kind = tape.entries[value].kind
                if kind == .array || kind == .object {
                    path.append(.key(child))
                    walk(value)
                    path.removeLast()
                }
                child = Int(tape.entries[value].end)
            }
            let tape = self.tape
            let repeated = tape.entries.withUnsafeBufferPointer { entries in
                tape.bytes.withUnsafeBufferPointer { Self.hasRepeat(inObjectAt: index, tape, entries, $0) }
            }
            if repeated { record(index, firstOrdinal: firstOrdinal) }
        default:
            break
        }
    }

    private func keyBytes(_ key: Int) -> ArraySlice<UInt8> {
        let entry = tape.entries[key]
        return tape.bytes[Int(entry.payload)..<Int(entry.payload + entry.count)]
    }

    /// The keys of the object at `index`, in order.
    private func keys(of index: Int) -> [Int] {
        var keys: [Int] = []
        keys.reserveCapacity(Int(tape.entries[index].count))
        var child = index + 1
        for _ in 0..<Int(tape.entries[index].count) {
            keys.append(child)
            child = Int(tape.entries[child + 1].end)
        }
        return keys
    }

    /// The repeats of the object at `index`, which has some, whose first key has `firstOrdinal`.
    private mutating func record(_ index: Int, firstOrdinal: Int) {
        let keys = keys(of: index)
        // Positions (within `keys`) of each name seen more than once, in order of first occurrence.
        var firstPosition: [ArraySlice<UInt8>: Int] = [:]
        var groups: [Int: [Int]] = [:]
        for position in keys.indices {
            let bytes = keyBytes(keys[position])
            if let first = firstPosition[bytes] {
                groups[first, default: [first]].append(position)
            } else {
                firstPosition[bytes] = position
            }
        }
        // A key's ordinal among all keys of the body: the keys before it here, and those inside
        // the values before it (every key belongs to exactly one object, so counting the members
        // of the objects within a value counts its keys).
        var ordinals: [Int] = []
        ordinals.reserveCapacity(keys.count)
        var ordinal = firstOrdinal
        for key in keys {
            ordinals.append(ordinal)
            ordinal += 1
            let value = tape.entries[key + 1]
            guard value.kind == .array || value.kind == .object else { continue }
            for inner in tape.entries[(key + 1)..<Int(value.end)] where inner.kind == .object {
                ordinal += Int(inner.count)
            }
        }
        for (first, group) in groups.sorted(by: { $0.key < $1.key }) {
            guard repeats.count < Self.maxListed else {
                omitted += 1
                continue
            }
            let name = tape.string(at: keys[first])
            repeats.append(Repeat(
                pointer: JSONPointer(tokens: pathTokens() + [name]), name: name,
                occurrences: group.map { (keyOrdinal: ordinals[$0], value: keys[$0] + 1) }))
        }
    }

    private func pathTokens() -> [String] {
        path.map { step in
            switch step {
            case .key(let key): tape.string(at: key)
            case .element(let element): String(element)
            }
        }
    }

    /// The byte offset of each wanted key's opening quote, by ordinal: one scan of a body already
    /// known to be valid JSON, where a string followed by `:` is a key.
    static func keyOffsets(in body: [UInt8], ordinals wanted: Set<Int>) -> [Int: Int] {
        var offsets: [Int: Int] = [:]
        guard let last = wanted.max() else { return offsets }
        body.withUnsafeBufferPointer { bytes in
            var index = 0
            var ordinal = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "\"") else {
                    index += 1
                    continue
                }
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                var after = index
                while after < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[after]) { after += 1 }
                guard after < bytes.count, bytes[after] == UInt8(ascii: ":") else { continue }
                if wanted.contains(ordinal) { offsets[ordinal] = start }
                if ordinal == last { return }
                ordinal += 1
                index = after + 1
            }
        }
        return offsets
    }
}
