import Foundation

/// A value reached only under a lock: `Synchronization.Mutex` for the platforms this package
/// still supports (`Mutex` needs macOS 15 and iOS 18), with the same shape, so it can be replaced
/// by `Mutex` once they are the oldest.
///
/// `@unchecked Sendable`, and what guards it: `value` is read and written only inside
/// ``withLock(_:)``, with `lock` held, so no two threads touch it at once. The value comes in as
/// `sending`, and what the body hands out is `sending`, as with `Mutex`, so no reference into
/// the value escapes the lock to be used from another thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: sending Value) {
        self.value = value
    }

    func withLock<Result, Failure: Error>(_ body: (inout sending Value) throws(Failure) -> sending Result) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
