/// A set of bytes as 256 bits: a lookup is a shift and a mask, which matters where masking
/// checks every byte of a large body.
struct ByteSet: Sendable {
    private var words: [UInt64] = [0, 0, 0, 0]

    init() {}

    init(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { insert(byte) }
    }

    mutating func insert(_ byte: UInt8) {
        words[Int(byte >> 6)] |= 1 << UInt64(byte & 63)
    }

    mutating func formUnion(_ other: ByteSet) {
        for index in 0..<4 { words[index] |= other.words[index] }
    }

    func contains(_ byte: UInt8) -> Bool {
        words[Int(byte >> 6)] & (1 << UInt64(byte & 63)) != 0
    }
}
