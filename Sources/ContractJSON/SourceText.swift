/// The bytes of a source file, to turn byte offsets into line and column.
///
/// The parser records only byte offsets (cheap); lines and columns are computed when a
/// diagnostic needs them, by counting from the start. Documents with locations keep a line
/// table so that the many lookups of a lint run stay fast.
public struct SourceText: Sendable {
    public let bytes: [UInt8]
    private let lineStarts: [Int]?

    /// - Parameter indexLines: build the line table now (worth it when many locations will be asked for).
    public init(_ bytes: [UInt8], indexLines: Bool = true) {
        self.bytes = bytes
        guard indexLines else {
            lineStarts = nil
            return
        }
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        lineStarts = starts
    }

    /// The location of a byte offset; offsets past the end map to the end of the text.
    public func location(ofOffset offset: Int) -> SourceLocation {
        let offset = max(0, min(offset, bytes.count))
        let (line, lineStart) = lineStarts.map { Self.line(containing: offset, in: $0) } ?? scanLine(containing: offset)
        // Columns count Unicode scalars: every byte that does not continue a UTF-8 sequence.
        var column = 1
        for byte in bytes[lineStart..<offset] where byte & 0xC0 != 0x80 {
            column += 1
        }
        return SourceLocation(line: line, column: column, offset: offset)
    }

    /// Binary search for the last line start at or before `offset`.
    private static func line(containing offset: Int, in starts: [Int]) -> (Int, Int) {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, starts[low])
    }

    private func scanLine(containing offset: Int) -> (Int, Int) {
        var line = 1
        var start = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            start = index + 1
        }
        return (line, start)
    }
}
