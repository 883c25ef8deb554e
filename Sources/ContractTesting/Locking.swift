import Foundation

extension NSLock {
    /// `NSLocking.withLock` needs macOS 14 and iOS 17 on Apple platforms; apps test on older ones.
    func locked<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock()
        defer { unlock() }
        return try body()
    }
}
