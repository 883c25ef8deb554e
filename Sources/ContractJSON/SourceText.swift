/// The bytes of a source file, to turn byte offsets into line and column.
///
/// The parser records only byte offsets (cheap); lines and columns are computed when a
/// diagnostic needs them, by counting from the nearest mark before the offset.
public struct SourceText: Sendable {
    /// The text; empty for one made with ``init(lineIndexOf:)`` that kept only its line index.
    public let bytes: [UInt8]
    /// The line and column at every `markStride` bytes: a location is counted from the mark
    /// before it, so a lookup reads at most that many bytes however many lines the text has or
    /// however long they are (a minified document is one line). A line table cost 8 bytes a
    /// line, most of a pretty-printed document's size again; these cost 16 bytes a kilobyte.
    private let marks: [Mark]

    private struct Mark: Sendable {
        var line: Int
        var column: Int
    }

    /// Where lines end, in place of the text (``init(lineIndexOf:)``).
    private let lineIndex: SourceLineIndex?

    private static let markStride = 1024

    /// - Parameter indexLines: place the marks now (worth it when many locations will be asked
    ///   for); without them each location is counted from the start.
    public init(_ bytes: [UInt8], indexLines: Bool = true) {
        self.bytes = bytes
        marks = indexLines ? Self.marks(bytes) : []
        lineIndex = nil
    }

    /// Keeps where the text's lines end and where its non-ASCII bytes are (about a byte a line),
    /// not the text: a caller that lets go of `bytes` after parsing frees the text, and every
    /// location still resolves as it would from the text. A text with many non-ASCII bytes is
    /// kept whole instead (the index would not be much smaller).
    public init(lineIndexOf bytes: [UInt8]) {
        let index = SourceLineIndex(bytes)
        self.bytes = index == nil ? bytes : []
        marks = index == nil ? Self.marks(bytes) : []
        lineIndex = index
    }

    /// The location of a byte offset; offsets past the end map to the end of the text.
    public func location(ofOffset offset: Int) -> SourceLocation {
        if let lineIndex { return lineIndex.location(ofOffset: max(0, min(offset, lineIndex.count))) }
        let offset = max(0, min(offset, bytes.count))
        let markIndex = marks.isEmpty ? 0 : min(offset / Self.markStride, marks.count - 1)
        let mark = marks.isEmpty ? Mark(line: 1, column: 1) : marks[markIndex]
        var line = mark.line
        var column = mark.column
        bytes.withUnsafeBufferPointer { buffer in
            for index in markIndex * Self.markStride..<offset {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    // Columns count Unicode scalars: every byte that does not continue a UTF-8 sequence.
                    column += 1
                }
            }
        }
        return SourceLocation(line: line, column: column, offset: offset)
    }

    /// The location at every multiple of ``markStride``, counted a word at a time: newlines and
    /// UTF-8 continuation bytes are found with bit tricks that are exact for every byte.
    private static func marks(_ bytes: [UInt8]) -> [Mark] {
        var marks: [Mark] = []
        marks.reserveCapacity(bytes.count / markStride + 1)
        var line = 1
        var column = 1
        bytes.withUnsafeBufferPointer { buffer in
            var blockStart = 0
            while true {
                marks.append(Mark(line: line, column: column))
                let blockEnd = blockStart + markStride
                guard blockEnd <= buffer.count else { break }
                let block = UnsafeBufferPointer(rebasing: buffer[blockStart..<blockEnd])
                let newlines = newlineCount(in: block)
                if newlines > 0, let lastNewline = block.lastIndex(of: UInt8(ascii: "\n")) {
                    line += newlines
                    column = 1 + scalarCount(UnsafeBufferPointer(rebasing: block[(lastNewline + 1)...]))
                } else {
                    column += scalarCount(block)
                }
                blockStart = blockEnd
            }
        }
        return marks
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Sets the high bit of exactly the zero bytes of `word`.
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low7 = ones &* 0x7F
        return ~(((word & low7) &+ low7) | word | low7)
    }

    private static func words(_ block: UnsafeBufferPointer<UInt8>, _ body: (UInt64) -> Void) -> Int {
        var index = 0
        if let base = block.baseAddress {
            while index + 8 <= block.count {
                body(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
                index += 8
            }
        }
        return index
    }

    private static func newlineCount(in block: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        let tail = words(block) { count += zeroBytes($0 ^ (ones &* 0x0A)).nonzeroBitCount }
        for byte in block[tail...] where byte == UInt8(ascii: "\n") { count += 1 }
        return count
    }

    /// Bytes that do not continue a UTF-8 sequence (those are `10xxxxxx`).
    private static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var continuations = 0
        let tail = words(bytes) { continuations += ($0 & ~($0 << 1) & highs).nonzeroBitCount }
        for byte in bytes[tail...] where byte & 0xC0 == 0x80 { continuations += 1 }
        return bytes.count - continuations
    }
}
