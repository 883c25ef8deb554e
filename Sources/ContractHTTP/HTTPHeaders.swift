/// A response's header fields in the order received, repeated names kept.
///
/// Stored as the bytes of names and values back to back, with where each ends, rather than as two
/// strings per field: a response's headers are then two allocations instead of up to twenty, and a
/// run keeps every response's headers for its reports. Fields become ``HTTPHeader`` values only
/// when read; lookups by name compare bytes.
public struct HTTPHeaders: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    private var bytes: [UInt8] = []
    /// For field `i`: `ends[2i]` is where its name ends, `ends[2i + 1]` where its value ends.
    private var ends: [UInt32] = []

    public init() {}

    public init(_ headers: some Sequence<HTTPHeader>) {
        for header in headers { append(header) }
    }

    public init(arrayLiteral elements: HTTPHeader...) {
        self.init(elements)
    }

    /// Room for a typical response's fields without growing.
    init(reservingBytes byteCount: Int, fields: Int) {
        bytes.reserveCapacity(byteCount)
        ends.reserveCapacity(fields * 2)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count / 2 }

    public subscript(position: Int) -> HTTPHeader {
        let (name, value) = ranges(position)
        return bytes.withUnsafeBufferPointer { buffer in
            HTTPHeader(
                String(decoding: UnsafeBufferPointer(rebasing: buffer[name]), as: UTF8.self),
                String(decoding: UnsafeBufferPointer(rebasing: buffer[value]), as: UTF8.self))
        }
    }

    public mutating func append(_ header: HTTPHeader) {
        append(name: header.name.utf8, value: header.value.utf8)
    }

    /// Appends a field from bytes, as they arrive from the network (decoded as UTF-8 when read).
    mutating func append(name: some Collection<UInt8>, value: some Collection<UInt8>) {
        bytes.append(contentsOf: name)
        ends.append(UInt32(bytes.count))
        bytes.append(contentsOf: value)
        ends.append(UInt32(bytes.count))
    }

    /// Forgets every field and keeps the storage (a new status line: interim or redirected responses).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Every value of the field `name` (any ASCII case), in order.
    public func values(of name: String) -> [String] {
        // One pass over the bytes, making only the strings of the values asked for: the check
        // stage asks this of every response for each header the case matches.
        var values: [String] = []
        bytes.withUnsafeBufferPointer { buffer in
            for position in indices {
                let (nameRange, valueRange) = ranges(position)
                guard HTTPHeader.namesEqual(buffer[nameRange], name.utf8) else { continue }
                values.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[valueRange]), as: UTF8.self))
            }
        }
        return values
    }

    /// The first value of the field `name` (any ASCII case).
    public func value(of name: String) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            for position in indices {
                let (nameRange, valueRange) = ranges(position)
                guard HTTPHeader.namesEqual(buffer[nameRange], name.utf8) else { continue }
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[valueRange]), as: UTF8.self)
            }
            return nil
        }
    }

    /// Whether the field `name` (any ASCII case) is present.
    public func contains(name: String) -> Bool {
        containsValue(of: name) { _ in true }
    }

    /// Whether some value of the field `name` (any ASCII case) passes `test`, which reads the
    /// value's bytes in place: the check stage's matchers run on every response, and a passing
    /// one then makes no string.
    public func containsValue(of name: String, where test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            for position in indices {
                let (nameRange, valueRange) = ranges(position)
                guard HTTPHeader.namesEqual(buffer[nameRange], name.utf8) else { continue }
                if test(UnsafeBufferPointer(rebasing: buffer[valueRange])) { return true }
            }
            return false
        }
    }

    /// Whether some field name comes more than once (any ASCII case). A response has a dozen
    /// fields and almost never a repeat: checks for repeated fields ask this first, and a response
    /// without one costs them nothing more.
    public var hasRepeatedNames: Bool {
        bytes.withUnsafeBufferPointer { buffer in
            for later in indices.dropFirst() {
                let name = buffer[ranges(later).name]
                for earlier in 0..<later where HTTPHeader.namesEqual(buffer[ranges(earlier).name], name) { return true }
            }
            return false
        }
    }

    private func ranges(_ position: Int) -> (name: Range<Int>, value: Range<Int>) {
        let start = position == 0 ? 0 : Int(ends[2 * position - 1])
        let nameEnd = Int(ends[2 * position])
        return (start..<nameEnd, nameEnd..<Int(ends[2 * position + 1]))
    }
}
