/// The bytes of a source file with a line table, to turn byte offsets into line and column.
///
/// The parser records only byte offsets (cheap); lines and columns are computed when a
/// diagnostic needs them.
public struct SourceText: Sendable {
    public let bytes: [UInt8]
    private let lineStarts: [Int]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        lineStarts = starts
    }

    /// The location of a byte offset; offsets past the end map to the end of the text.
    public func location(ofOffset offset: Int) -> SourceLocation {
        let offset = max(0, min(offset, bytes.count))
        // Binary search for the last line start <= offset.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let lineStart = lineStarts[low]
        // Columns count Unicode scalars: every byte that does not continue a UTF-8 sequence.
        var column = 1
        for byte in bytes[lineStart..<offset] where byte & 0xC0 != 0x80 {
            column += 1
        }
        return SourceLocation(line: low + 1, column: column, offset: offset)
    }
}
