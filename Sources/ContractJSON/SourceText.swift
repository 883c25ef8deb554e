/// The bytes of a source file, to turn byte offsets into line and column.
///
/// The parser records only byte offsets (cheap); lines and columns are computed when a
/// diagnostic needs them, by counting from the start. Documents with locations keep a line
/// table so that the many lookups of a lint run stay fast.
public struct SourceText: Sendable {
    public let bytes: [UInt8]
    private let lineStarts: [Int]?
    /// The column at every `columnStride` bytes of each longer line, in offset order: a column is
    /// counted from the nearest of these, not from the start of a line that may be megabytes long
    /// (a minified document is one line), which made many lookups on such a line quadratic.
    private let columnMarks: [ColumnMark]

    private struct ColumnMark: Sendable {
        var offset: Int
        var column: Int
    }

    private static let columnStride = 4096

    /// - Parameter indexLines: build the line table now (worth it when many locations will be asked for).
    public init(_ bytes: [UInt8], indexLines: Bool = true) {
        self.bytes = bytes
        guard indexLines else {
            lineStarts = nil
            columnMarks = []
            return
        }
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        lineStarts = starts
        var marks: [ColumnMark] = []
        for (line, start) in starts.enumerated() {
            let end = line + 1 < starts.count ? starts[line + 1] : bytes.count
            var column = 1
            var from = start
            for markOffset in stride(from: start + Self.columnStride, to: end, by: Self.columnStride) {
                column += Self.scalarCount(bytes[from..<markOffset])
                marks.append(ColumnMark(offset: markOffset, column: column))
                from = markOffset
            }
        }
        columnMarks = marks
    }

    /// The location of a byte offset; offsets past the end map to the end of the text.
    public func location(ofOffset offset: Int) -> SourceLocation {
        let offset = max(0, min(offset, bytes.count))
        let (line, lineStart) = lineStarts.map { Self.line(containing: offset, in: $0) } ?? scanLine(containing: offset)
        var (from, column) = (lineStart, 1)
        if let mark = lastColumnMark(atOrBefore: offset), mark.offset > lineStart { (from, column) = (mark.offset, mark.column) }
        return SourceLocation(line: line, column: column + Self.scalarCount(bytes[from..<offset]), offset: offset)
    }

    /// Columns count Unicode scalars: every byte that does not continue a UTF-8 sequence.
    private static func scalarCount(_ bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 {
            count += 1
        }
        return count
    }

    private func lastColumnMark(atOrBefore offset: Int) -> ColumnMark? {
        var low = 0
        var high = columnMarks.count
        while low < high {
            let middle = (low + high) / 2
            if columnMarks[middle].offset <= offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? columnMarks[low - 1] : nil
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
