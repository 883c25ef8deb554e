import Foundation

/// Runs blocking work (waiting for a child process, polling a folder) on a thread of its own.
/// Tests run on the cooperative pool, which has one thread per core: two tests that block there
/// for half a minute starve every async test beside them (an HTTP timeout test then measures the
/// wait for a thread, not the timeout).
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
