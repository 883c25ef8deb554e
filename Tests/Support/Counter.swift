import Foundation

/// A thread-safe counter, for servers and streams whose callbacks run on other threads.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    public init() {}

    /// How many times ``next()`` was called.
    public var count: Int { lock.withLock { value } }

    /// 1, 2, 3…
    public func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
