/// What turns a byte offset of a text into its line and column, without the text: where each
/// line ends and where the text's few UTF-8 continuation bytes are. For a document whose text
/// is not kept after parsing (a large contract's text was as large again as its decoded model,
/// kept only for the lines and columns of diagnostics).
///
/// About one byte a line and four per non-ASCII byte; ``init(_:)`` declines a text with many
/// non-ASCII bytes, where the text itself is the smaller way to keep this.
struct SourceLineIndex: Sendable {
    /// The text's length: offsets past it map to its end.
    let count: Int
    /// Each newline's distance from the one before (the first one's from the start), one byte
    /// each when below 255; 255 is followed by the distance in eight bytes, little-endian.
    private let newlineGaps: [UInt8]
    /// Every `checkpointStride`-th newline: where its gap ends in `newlineGaps` and its offset,
    /// so a lookup walks at most that many gaps.
    private let checkpoints: [Checkpoint]
    /// The offsets of the bytes that continue a UTF-8 sequence (`10xxxxxx`), ascending:
    /// columns count Unicode scalars, so these are left out of a column.
    private let continuations: [UInt32]

    private struct Checkpoint: Sendable {
        /// How many newlines come before the next gap to read.
        var newlines: Int
        /// Where the next gap starts in `newlineGaps`.
        var gapIndex: Int
        /// The offset just past the last newline read (the start of its line).
        var lineStart: Int
    }

    private static let checkpointStride = 64
    private static let longGap: UInt8 = 255

    /// Nil when the text has more than one continuation byte in 64 (the index would be more
    /// than a sixteenth of the text) or does not fit 32-bit offsets.
    init?(_ bytes: [UInt8]) {
        guard bytes.count <= Int(UInt32.max) else { return nil }
        var gaps: [UInt8] = []
        gaps.reserveCapacity(bytes.count / 16)
        var checkpoints = [Checkpoint(newlines: 0, gapIndex: 0, lineStart: 0)]
        var continuations: [UInt32] = []
        let limit = bytes.count / 64
        var newlines = 0
        var lastLineStart = 0
        let complete: Bool = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            // Eight bytes at a time: most words hold neither a newline nor a non-ASCII byte.
            var wordStart = 0
            while wordStart < buffer.count {
                let width = min(8, buffer.count - wordStart)
                var interesting: UInt64
                if width == 8 {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + wordStart).loadUnaligned(as: UInt64.self))
                    interesting = Self.zeroBytes(word ^ (Self.ones &* 0x0A)) | (word & Self.highs)
                } else {
                    interesting = Self.highs
                }
                while interesting != 0 {
                    let index = wordStart + interesting.trailingZeroBitCount / 8
                    interesting &= interesting &- 1
                    guard index < buffer.count else { break }
                    let byte = buffer[index]
                    if byte == UInt8(ascii: "\n") {
                        Self.appendGap(index + 1 - lastLineStart, to: &gaps)
                        lastLineStart = index + 1
                        newlines += 1
                        if newlines % Self.checkpointStride == 0 {
                            checkpoints.append(Checkpoint(newlines: newlines, gapIndex: gaps.count, lineStart: lastLineStart))
                        }
                    } else if byte & 0xC0 == 0x80 {
                        guard continuations.count < limit else { return false }
                        continuations.append(UInt32(index))
                    }
                }
                wordStart += width
            }
            return true
        }
        guard complete else { return nil }
        count = bytes.count
        newlineGaps = gaps
        self.checkpoints = checkpoints
        self.continuations = continuations
    }

    /// The location of `offset`, which the caller has clamped to `0...count`.
    func location(ofOffset offset: Int) -> SourceLocation {
        // The last checkpoint whose line starts at or before the offset.
        var low = 0
        var high = checkpoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if checkpoints[middle].lineStart <= offset { low = middle } else { high = middle - 1 }
        }
        var line = checkpoints[low].newlines + 1
        var lineStart = checkpoints[low].lineStart
        var gapIndex = checkpoints[low].gapIndex
        while gapIndex < newlineGaps.count {
            let (gap, next) = readGap(at: gapIndex)
            guard lineStart + gap <= offset else { break }
            lineStart += gap
            line += 1
            gapIndex = next
        }
        let column = offset - lineStart + 1 - continuationCount(from: lineStart, to: offset)
        return SourceLocation(line: line, column: column, offset: offset)
    }

    /// How many continuation bytes lie in `start..<end`.
    private func continuationCount(from start: Int, to end: Int) -> Int {
        guard !continuations.isEmpty, start < end else { return 0 }
        return firstContinuation(atOrAfter: end) - firstContinuation(atOrAfter: start)
    }

    private func firstContinuation(atOrAfter offset: Int) -> Int {
        var low = 0
        var high = continuations.count
        while low < high {
            let middle = (low + high) / 2
            if Int(continuations[middle]) < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func readGap(at index: Int) -> (gap: Int, next: Int) {
        let first = newlineGaps[index]
        guard first == Self.longGap else { return (Int(first), index + 1) }
        var gap = 0
        for shift in 0..<8 { gap |= Int(newlineGaps[index + 1 + shift]) << (8 * shift) }
        return (gap, index + 9)
    }

    private static func appendGap(_ gap: Int, to gaps: inout [UInt8]) {
        if gap < Int(longGap) {
            gaps.append(UInt8(gap))
            return
        }
        gaps.append(longGap)
        for shift in 0..<8 { gaps.append(UInt8(truncatingIfNeeded: gap >> (8 * shift))) }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Sets the high bit of exactly the zero bytes of `word`.
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low7 = ones &* 0x7F
        return ~(((word & low7) &+ low7) | word | low7)
    }
}
