import ContractJSON

/// A JSON file of ours read back (a report, a baseline, an ignore file) as a ``JSONTape``, with the problems found
/// in it placed by JSON Pointer, line and column.
///
/// A tape is the file's bytes and 16 bytes per value, where a ``JSONValue`` tree with its
/// locations costs several times the file: the readers of files that may be hostile walk the
/// tape, check every size against the limits, and build only what passes. Where a value starts is
/// worked out only for a problem (``location(ofEntry:)``), by reading the text from the nearest
/// string before it.
package struct TapeDocument {
    package let tape: JSONTape
    package let file: String
    /// The file's own bytes come first in ``JSONTape/bytes``; strings with escapes follow them.
    private let sourceCount: Int
    /// Each problem's message, place and byte offset: lines and columns are counted once, at the end.
    private var found: [(message: String, pointer: JSONPointer, offset: Int)] = []
    /// Problems kept of one file: enough to see what is wrong with it; a file broken throughout
    /// costs no more to refuse than this.
    package static let maxProblems = 20

    /// The file parsed, or the syntax error placed in it.
    package static func parse(_ bytes: [UInt8], file: String) -> Result<TapeDocument, DiagnosticsError> {
        do {
            return .success(TapeDocument(tape: try JSONParser().parseTape(bytes), file: file, sourceCount: bytes.count))
        } catch {
            return .failure(DiagnosticsError([.error("not JSON: \(error.message)", file: file, location: error.location)]))
        }
    }

    /// Records the first key repeated within one object as a problem, at the key; true when there
    /// is one. Where a reader keeps the last value another tool keeps the first, so the two read
    /// different files from one: a report's `"outcome": "error", "outcome": "passed"` read as
    /// passed with no word.
    package mutating func findsRepeatedKey() -> Bool {
        guard let repeated = firstRepeatedKey() else { return false }
        let key = string(repeated.key)
        problem("key '\(MessageText.oneLine(key))' is repeated", at: pointer(to: repeated.object).appending(key), entry: repeated.key)
        return true
    }

    /// The first key repeated within one object, in the file's order, with its object: one pass
    /// over the tape, each object's keys compared as bytes (escapes decoded).
    private func firstRepeatedKey() -> (key: Int, object: Int)? {
        var seen = Set<ArraySlice<UInt8>>()
        for index in tape.entries.indices where kind(index) == .object && count(index) > 1 {
            seen.removeAll(keepingCapacity: true)
            var child = index + 1
            for _ in 0..<count(index) {
                let key = tape.entries[child]
                let start = Int(key.payload)
                if !seen.insert(tape.bytes[start..<start + Int(key.count)]).inserted { return (child, index) }
                child = Int(tape.entries[child + 1].end)
            }
        }
        return nil
    }

    /// Where the value at `target` is, found from the root down (for a problem only).
    private func pointer(to target: Int) -> JSONPointer {
        var pointer = JSONPointer.root
        var index = 0
        while index != target {
            switch kind(index) {
            case .object:
                guard let member = members(index).first(where: { $0.value <= target && target < Int(tape.entries[$0.value].end) }) else { return pointer }
                pointer = pointer.appending(string(member.key))
                index = member.value
            case .array:
                guard let (position, element) = elements(index).enumerated().first(where: { $0.element <= target && target < Int(tape.entries[$0.element].end) })
                else { return pointer }
                pointer = pointer.appending(position)
                index = element
            default:
                return pointer
            }
        }
        return pointer
    }

    // MARK: Reading

    package func kind(_ index: Int) -> JSONTape.Kind { tape.entries[index].kind }

    /// Elements of an array, members of an object, UTF-8 bytes of a string.
    package func count(_ index: Int) -> Int { Int(tape.entries[index].count) }

    /// The index of each element of the array at `index`.
    package func elements(_ index: Int) -> [Int] {
        var children: [Int] = []
        children.reserveCapacity(count(index))
        var child = index + 1
        for _ in 0..<count(index) {
            children.append(child)
            child = Int(tape.entries[child].end)
        }
        return children
    }

    /// Each member of the object at `index`: the index of its key, and of its value.
    package func members(_ index: Int) -> [(key: Int, value: Int)] {
        var members: [(key: Int, value: Int)] = []
        var child = index + 1
        for _ in 0..<count(index) {
            members.append((child, child + 1))
            child = Int(tape.entries[child + 1].end)
        }
        return members
    }

    /// The value of member `key` of the object at `index` (the last, if the key is repeated, as
    /// ``JSONValue`` keeps it).
    package func member(_ key: StaticString, of index: Int) -> Int? {
        lastMember(of: index) { equals($0, key) }
    }

    /// Whether the string or key at `index` is `text`.
    package func equals(_ index: Int, _ text: StaticString) -> Bool {
        let entry = tape.entries[index]
        guard entry.kind == .string, Int(entry.count) == text.utf8CodeUnitCount else { return false }
        let start = Int(entry.payload)
        return text.withUTF8Buffer { expected in
            tape.bytes.withUnsafeBufferPointer { bytes in
                expected.elementsEqual(bytes[start..<start + expected.count])
            }
        }
    }

    /// The value of member `key` of the object at `index`, the last if the key is repeated.
    package func member(_ key: String, of index: Int) -> Int? {
        lastMember(of: index) { equals($0, key) }
    }

    /// The value of the last member of the object at `index` whose key `matches`.
    private func lastMember(of index: Int, _ matches: (Int) -> Bool) -> Int? {
        var found: Int?
        var child = index + 1
        for _ in 0..<count(index) {
            if matches(child) { found = child + 1 }
            child = Int(tape.entries[child + 1].end)
        }
        return found
    }

    /// Whether the string or key at `index` is `text`.
    package func equals(_ index: Int, _ text: String) -> Bool {
        let entry = tape.entries[index]
        guard entry.kind == .string, Int(entry.count) == text.utf8.count else { return false }
        let start = Int(entry.payload)
        return text.utf8.elementsEqual(tape.bytes[start..<start + Int(entry.count)])
    }

    package func string(_ index: Int) -> String { tape.string(at: index) }

    package func number(_ index: Int) -> JSONNumber { tape.numbers[Int(tape.entries[index].payload)] }

    /// How a value is named in a message: `'text'` for a short string, else its kind.
    package func describe(_ index: Int) -> String {
        switch kind(index) {
        case .null: "null"
        case .bool: "\(tape.entries[index].flag)"
        case .number: MessageText.clipped(number(index))
        case .string where count(index) <= 400: "'\(MessageText.clipped(string(index)))'"
        case .string: "a string of \(ByteCount.grouped(count(index))) bytes"
        case .array: "an array"
        case .object: "an object"
        }
    }

    // MARK: Problems

    /// Records a problem with the value at `entry`, whose place in the file is `pointer`; past
    /// ``maxProblems``, nothing more (``isFull``: readers stop there).
    package mutating func problem(_ message: String, at pointer: JSONPointer, entry: Int) {
        guard !isFull else { return }
        found.append((message, pointer, offset(ofEntry: entry)))
    }

    package var isFull: Bool { found.count >= Self.maxProblems }

    package var hasProblems: Bool { !found.isEmpty }

    /// The problems, placed by line and column.
    package var problems: [Diagnostic] {
        guard !found.isEmpty else { return [] }
        // The tape's own bytes, shared, not copied: the file comes first in them, and every
        // offset is inside it.
        let text = SourceText(tape.bytes)
        return found.map { .error($0.message, file: file, location: text.location(ofOffset: $0.offset), pointer: $0.pointer) }
    }

    /// Whether the string at `index` is read in the file's own bytes, where its offset is known.
    private func isInPlace(_ index: Int) -> Bool {
        let entry = tape.entries[index]
        let start = Int(entry.payload)
        return entry.kind == .string && start >= 1 && start + Int(entry.count) <= sourceCount && tape.bytes[start - 1] == UInt8(ascii: "\"")
    }

    private func offset(ofEntry target: Int) -> Int {
        var index = min(target, tape.entries.count - 1)
        // The nearest string at or before `target` that points into the file's own bytes.
        while index > 0, !isInPlace(index) { index -= 1 }
        let bytes = tape.bytes
        var offset = isInPlace(index) ? Int(tape.entries[index].payload) - 1 : Self.skipSpace(bytes, from: 0, end: sourceCount)
        // `offset` is where entry `index` starts; each later entry starts one token on.
        while index < target, offset < sourceCount {
            offset = Self.skipToken(bytes, from: offset, end: sourceCount)
            // Separators and closing brackets start no entry.
            while offset < sourceCount, [UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) {
                offset += 1
            }
            index += 1
        }
        return min(offset, sourceCount)
    }

    private static func skipSpace(_ bytes: [UInt8], from start: Int, end: Int) -> Int {
        var offset = start
        while offset < end, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
        return offset
    }

    /// Past the token at `start`: a string, a number or a literal; a bracket that opens is one byte.
    private static func skipToken(_ bytes: [UInt8], from start: Int, end: Int) -> Int {
        var offset = start
        switch bytes[offset] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return offset + 1
        case UInt8(ascii: "\""):
            offset += 1
            while offset < end, bytes[offset] != UInt8(ascii: "\"") {
                offset += bytes[offset] == UInt8(ascii: "\\") ? 2 : 1
            }
            return min(offset + 1, end)
        default:
            while offset < end, !([UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset])) {
                offset += 1
            }
            return offset
        }
    }
}
