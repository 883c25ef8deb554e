/// Equality of bytes, for names and texts compared often (member names, repeated texts): as
/// `String.utf8.elementsEqual`, which went through the generic sequence protocol a byte at a
/// time and was most of a large contract's lookups of members.
enum ByteComparison {
    /// The same UTF-8 bytes: code points as written (`==` on `String` is canonical equivalence).
    @inline(__always)
    static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let contiguous = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in equal(x, y) }
        }
        return (contiguous ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// Eight bytes at a time.
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress, x != y else { return true }
        var index = 0
        while index + 8 <= a.count {
            guard UnsafeRawPointer(x + index).loadUnaligned(as: UInt64.self) == UnsafeRawPointer(y + index).loadUnaligned(as: UInt64.self) else {
                return false
            }
            index += 8
        }
        while index < a.count {
            guard x[index] == y[index] else { return false }
            index += 1
        }
        return true
    }
}
