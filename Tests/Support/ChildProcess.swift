import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, for tests that run the binary, the example server
/// or openssl.
///
/// Not `Foundation.Process`: on Linux (swift-corelibs-foundation as shipped with Swift 6.3.1) its
/// `run()` reads `/proc/self/fd` with a 256-byte copy of each directory entry, which now and then
/// reads past glibc's buffer into an unmapped page and crashes the whole test process
/// (swiftlang/swift-corelibs-foundation#5472; a fresh-clone CI run crashed in it), and it changes
/// the process's working directory around the spawn, which races when tests start children in
/// parallel. Here the child's directory is set in the spawn itself, and every descriptor this
/// type opens is close-on-exec, so no child inherits another test's pipes.
public final class ChildProcess: @unchecked Sendable {
    public enum Output: Sendable {
        /// `/dev/null`.
        case discard
        /// A pipe, read with ``collect()``.
        case capture
        /// A file, created or truncated.
        case file(String)
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public let pid: pid_t
    private var outputPipe: Int32 = -1
    private var errorPipe: Int32 = -1
    private let lock = NSLock()
    private var status: Int32?
    private var usage: Double?

    /// Starts `executable` with `arguments`, in `directory`, with `environment` (nil: this
    /// process's).
    public init(
        _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
        stdout: Output = .discard, stderr: Output = .discard
    ) throws(SpawnError) {
        // One launch at a time: a pipe is made close-on-exec just after it is made (Swift's Glibc
        // module has no pipe2), and no other child may be spawned in between and inherit it.
        Self.launching.lock()
        defer { Self.launching.unlock() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        func route(_ output: Output, to target: Int32) throws(SpawnError) -> Int32 {
            switch output {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
                return -1
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                return -1
            case .capture:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
                // Close-on-exec before any other child can be spawned (launches hold `launching`).
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                posix_spawn_file_actions_adddup2(&actions, ends[1], target)
                parentEnds.append(ends[0])
                childEnds.append(ends[1])
                return ends[0]
            }
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let outputEnd = try route(stdout, to: 1)
        let errorEnd = try route(stderr, to: 2)
        var program = executable
        var argv = [executable] + arguments
        if let directory {
            if let addChdir = Self.addChdir {
                _ = withUnsafeMutablePointer(to: &actions) { addChdir($0, directory) }
            } else {
                // An older glibc: GNU env changes the directory, then runs the program.
                program = "/usr/bin/env"
                argv = ["env", "-C", directory, "--", executable] + arguments
            }
        }
        // Only 0, 1 and 2 reach the child. Without this, a child inherits every descriptor this
        // process opened without close-on-exec (Foundation's file writes among them), and a
        // long-lived one (a server a suite runs for minutes) keeps a script another test is
        // writing open for writing: running that script then fails with "Text file busy".
        if let addCloseFrom = Self.addCloseFrom {
            _ = withUnsafeMutablePointer(to: &actions) { addCloseFrom($0, 3) }
        }
        let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var spawned: pid_t = 0
        let result = Self.withCStrings(argv) { argvPointer in
            Self.withCStrings(environmentLines) { environmentPointer in
                posix_spawn(&spawned, program, &actions, nil, argvPointer, environmentPointer)
            }
        }
        for end in childEnds { close(end) }
        guard result == 0 else {
            for end in parentEnds { close(end) }
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = spawned
        outputPipe = outputEnd
        errorPipe = errorEnd
    }

    deinit {
        if outputPipe >= 0 { close(outputPipe) }
        if errorPipe >= 0 { close(errorPipe) }
    }

    /// Runs to the end and returns the exit status with what it wrote (both captured).
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil
    ) throws(SpawnError) -> (status: Int32, stdout: Data, stderr: Data) {
        let child = try ChildProcess(executable, arguments, in: directory, environment: environment, stdout: .capture, stderr: .capture)
        let (stdout, stderr) = child.collect()
        return (child.wait(), stdout, stderr)
    }

    /// Reads the captured outputs to their end, both at once, so a full pipe never blocks the child.
    public func collect() -> (stdout: Data, stderr: Data) {
        let errorEnd = errorPipe
        let errorData = ErrorBox()
        let reader = Thread { errorData.data = Self.readAll(errorEnd); errorData.done.signal() }
        if errorEnd >= 0 { reader.start() }
        let output = Self.readAll(outputPipe)
        if errorEnd >= 0 { errorData.done.wait() }
        return (output, errorData.data)
    }

    /// The captured standard output up to its first line break (or its end), for a server that
    /// announces its address on its first line.
    public func readFirstLine() -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 65536, read(outputPipe, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Closes this end of the captured standard output, as a reader that goes away does: the
    /// child's next write to it fails (EPIPE, or SIGPIPE when it does not ignore it).
    public func closeOutput() {
        if outputPipe >= 0 { close(outputPipe) }
        outputPipe = -1
    }

    /// The exit status, or 128 + the signal that ended it; waits for the end.
    @discardableResult
    public func wait() -> Int32 {
        if let known = lock.withLock({ status }) { return known }
        var raw: Int32 = 0
        var resources = rusage()
        while wait4(pid, &raw, 0, &resources) == -1 && errno == EINTR {}
        return record(raw, resources)
    }

    /// The CPU time the child used, user and system, in seconds (from `wait4`, for this child
    /// alone: not the other tests' children); nil until it has been waited for.
    public var cpuSeconds: Double? {
        lock.withLock { usage }
    }

    public var isRunning: Bool {
        if lock.withLock({ status }) != nil { return false }
        var raw: Int32 = 0
        var resources = rusage()
        let result = wait4(pid, &raw, WNOHANG, &resources)
        guard result == pid else { return result == 0 }
        record(raw, resources)
        return false
    }

    public func signal(_ number: Int32) {
        if lock.withLock({ status }) == nil { kill(pid, number) }
    }

    @discardableResult
    private func record(_ raw: Int32, _ resources: rusage) -> Int32 {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = raw & 0x7f
        let value = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        lock.withLock {
            status = value
            usage = seconds(resources.ru_utime) + seconds(resources.ru_stime)
        }
        return value
    }

    private final class ErrorBox: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    private static func readAll(_ descriptor: Int32) -> Data {
        guard descriptor >= 0 else { return Data() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { data.append(buffer, count: count) } else if count == 0 || errno != EINTR { break }
        }
        return data
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return (copies + [nil]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static let launching = NSLock()

    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29), which Swift's Glibc module does not
    /// import: looked up by name.
    private static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: AddChdir.self) }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up by name for the same reason.
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
}
