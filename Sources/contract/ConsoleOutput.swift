import Foundation

/// Standard output for the console reporter. On a terminal every write goes out at once (the
/// progress line must move); in CI logs lines are gathered for up to 100 ms or 64 KiB, so a fast
/// run does not make one system call per case.
final class ConsoleOutput {
    private let buffered: Bool
    private var pending: [UInt8] = []
    private var lastFlush = ContinuousClock.now
    private static let maxDelay = Duration.milliseconds(100)
    private static let maxBytes = 64 * 1024

    init(buffered: Bool) {
        self.buffered = buffered
    }

    /// The console reporter's lines as it built them: appended, no string made.
    func write(utf8 text: [UInt8]) {
        pending += text
        if !buffered || pending.count >= Self.maxBytes || ContinuousClock.now - lastFlush >= Self.maxDelay { flush() }
    }

    func flush() {
        lastFlush = ContinuousClock.now
        guard !pending.isEmpty else { return }
        FileHandle.standardOutput.write(Data(pending))
        pending.removeAll(keepingCapacity: true)
    }
}
