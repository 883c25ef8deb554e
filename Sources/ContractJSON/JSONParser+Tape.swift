extension JSONParser {
    /// Parses straight into a ``JSONTape``: no ``JSONValue``, no locations, one growing buffer
    /// per kind instead of an allocation per value. The same grammar, limits and error messages
    /// as ``parse(_:)-([UInt8])``; for bodies that are validated and then dropped.
    ///
    /// Unlike ``JSONValue``, which keeps the last of duplicate keys, the tape keeps every member
    /// as it was sent.
    public func parseTape(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONTape {
        var sink = JSONTapeSink(source: bytes)
        // Minified API data holds about a value every three to four bytes: reserving that saves
        // most regrowth copies. (Reserving an upper bound was slower when many tapes are kept.)
        sink.tape.entries.reserveCapacity(bytes.count / 4 + 1)
        // Numbers are rarer (about one per 16 bytes in order-like bodies); reserving for them
        // saves the regrowth copies of two arrays.
        sink.tape.numbers.reserveCapacity(bytes.count / 16 + 1)
        sink.tape.scaledNumbers.reserveCapacity(bytes.count / 16 + 1)
        try read(bytes, into: &sink)
        return sink.tape
    }
}

/// Lays the grammar's events out as a ``JSONTape``: an entry per value and key, in document order.
///
/// The tape's bytes start as the document's own (shared, not copied): a string without escapes
/// (nearly all) points into them where it is written, so no string is copied. The decoded bytes
/// of a string with escapes are appended after them.
struct JSONTapeSink: JSONSink {
    var tape = JSONTape()

    init(source: [UInt8]) {
        tape.bytes = source
    }

    func mayReuse() -> Bool { false }

    mutating func reuse(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        false
    }

    mutating func beginArray(at offset: Int) -> Int {
        beginContainer(.array)
    }

    mutating func endArray(_ mark: Int, count: Int, text: UnsafeBufferPointer<UInt8>) {
        endContainer(mark, count: count)
    }

    mutating func beginObject(at offset: Int) -> Int {
        beginContainer(.object)
    }

    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, inPlace: Bool) {
        string(bytes, at: offset, inPlace: inPlace)
    }

    mutating func endObject(_ mark: Int, count: Int, text: UnsafeBufferPointer<UInt8>) {
        endContainer(mark, count: count)
    }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, inPlace: Bool) {
        var start = offset + 1
        if !inPlace {
            start = tape.bytes.count
            tape.bytes.append(contentsOf: bytes)
        }
        tape.entries.append(JSONTape.Entry(
            kind: .string, flag: false, count: Int32(bytes.count), end: Int32(tape.entries.count + 1), payload: Int32(start)))
    }

    mutating func number(_ number: JSONNumber, at offset: Int) {
        tape.appendNumber(number)
    }

    mutating func bool(_ value: Bool, at offset: Int) {
        tape.entries.append(JSONTape.Entry(kind: .bool, flag: value, count: 0, end: Int32(tape.entries.count + 1), payload: 0))
    }

    mutating func null(at offset: Int) {
        tape.entries.append(JSONTape.Entry(kind: .null, flag: false, count: 0, end: Int32(tape.entries.count + 1), payload: 0))
    }

    private mutating func beginContainer(_ kind: JSONTape.Kind) -> Int {
        tape.entries.append(JSONTape.Entry(kind: kind, flag: false, count: 0, end: 0, payload: 0))
        return tape.entries.count - 1
    }

    private mutating func endContainer(_ mark: Int, count: Int) {
        tape.entries[mark].count = Int32(count)
        tape.entries[mark].end = Int32(tape.entries.count)
    }
}

