extension JSONGrammar {
    /// Whether the sink took the array or object at `position` whole (``JSONSink/reuse(_:at:)``);
    /// if so, steps past it.
    @usableFromInline mutating func reused<Sink: JSONSink>(depth: Int, into sink: inout Sink) -> Bool {
        guard let end = containerEnd(depth: depth, within: JSONValueSharing.containerLengths.upperBound),
            sink.reuse(UnsafeBufferPointer(rebasing: bytes[position..<end]), at: position)
        else { return false }
        position = end
        return true
    }

    /// Just past the bracket that closes the array or object at `position`, found by matching
    /// brackets outside strings, when it is within `limit` bytes and nothing in it nests deeper
    /// than ``maxDepth`` allows (from `depth`, the depth of the value holding it); nil otherwise.
    /// Not a check of the text: a sink takes a container whole only when it read the same bytes
    /// before, and they were valid.
    @usableFromInline func containerEnd(depth: Int, within limit: Int) -> Int? {
        let end = min(bytes.count, position + limit)
        var index = position
        var level = 0
        while true {
            index = nextBracketOrQuote(from: index, before: end)
            guard index < end else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                level += 1
                if depth + level > maxDepth { return nil }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                level -= 1
                if level == 0 { return index + 1 }
            default:  // a quote: on to the one that closes the string
                index += 1
                while true {
                    index = plainRunEnd(from: index)
                    guard index < end else { return nil }
                    if bytes[index] == UInt8(ascii: "\"") { break }
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            }
            index += 1
        }
    }

    /// The first bracket or quote from `start` (or `end`), eight bytes at a time. Clearing bit 5
    /// makes `{` `[` and `}` `]`; as in ``plainRunEnd(from:)``, the lowest flagged byte is a match.
    @usableFromInline func nextBracketOrQuote(from start: Int, before end: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            while index + 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let folded = word & (ones &* 0xDF)
                let open = folded ^ (ones &* 0x5B)
                let close = folded ^ (ones &* 0x5D)
                let quote = word ^ (ones &* 0x22)
                let found = (((open &- ones) & ~open) | ((close &- ones) & ~close) | ((quote &- ones) & ~quote)) & (ones &* 0x80)
                if found != 0 { return index + found.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return end
    }
}
