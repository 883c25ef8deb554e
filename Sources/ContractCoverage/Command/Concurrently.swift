import Dispatch

/// Work split over the machine's cores, each piece's result kept at its index: coverage renders
/// its report files (JSON, HTML, Markdown, the console) side by side, each a few tenths of a
/// second for a large tree.
enum Concurrently {
    static func map<Value: Sendable>(_ count: Int, _ work: @Sendable (Int) -> Value) -> [Value?] {
        let results = Slots<Value>(count)
        DispatchQueue.concurrentPerform(iterations: count) { index in results.set(index, work(index)) }
        return results.values
    }

    /// One slot per piece; each piece writes only its own slot, and the slots are read after
    /// `concurrentPerform` has returned, which orders every write before the read.
    private final class Slots<Value>: @unchecked Sendable {
        private let buffer: UnsafeMutableBufferPointer<Value?>

        init(_ count: Int) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: nil)
        }

        deinit {
            buffer.deinitialize()
            buffer.deallocate()
        }

        func set(_ index: Int, _ value: Value) { buffer[index] = value }

        var values: [Value?] { Array(buffer) }
    }
}

/// A value whose last reference is dropped on another thread: the contracts a large tree loads
/// are a tree of many small allocations, and freeing them is work the command's output need
/// not wait for.
final class Retired<Value>: @unchecked Sendable {
    // Only the background block touches it after `init`.
    private var value: Value?

    init(_ value: consuming Value) {
        self.value = value
        DispatchQueue.global(qos: .utility).async { self.value = nil }
    }
}
