import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run to its end with `posix_spawn`, its standard output streamed to a closure and its
/// standard error kept (the first 64 KiB), both read as they come so neither pipe fills and blocks
/// the child.
///
/// Not `Foundation.Process`: on Linux (swift-corelibs-foundation as shipped with Swift 6.3) its
/// `run()` can crash the whole process reading `/proc/self/fd` (swiftlang/swift-corelibs-foundation#5472),
/// and it changes the process's working directory around the spawn. Here the child's directory
/// is set in the spawn itself, and the pipes are close-on-exec from the moment they exist
/// (`pipe2`), so no other child started meanwhile holds one open.
struct Subprocess {
    struct SpawnError: Error, Sendable {
        var message: String
    }

    struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended the child.
        var status: Int32
        /// What the child wrote on standard error (its first 64 KiB).
        var standardError: [UInt8]
        /// The `read` calls that returned standard output, and the bytes they returned.
        var outputReads = 0
        var outputBytes = 0
        /// The reader stopped reading the output before its end (its pipe was closed, and the
        /// child ended by it): what was read is a part.
        var stoppedReading = false

        /// Standard error as one line of text: `fatal: not a git repository …`.
        var errorText: String {
            String(decoding: standardError, as: UTF8.self)
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: "; ")
        }
    }

    /// Whether a child's working directory can be set in the spawn (glibc 2.29, macOS 10.15).
    static var canSetDirectory: Bool { addChdir != nil }

    /// Runs `executable` (a path) with `arguments` in `directory`, standard input from `input`
    /// (a descriptor; -1 for `/dev/null`), and hands each piece of its standard output to
    /// `output` as it arrives.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String?, environment: [String: String], input: Int32 = -1,
        output: (UnsafeRawBufferPointer) -> Void
    ) throws(SpawnError) -> Outcome {
        try run(executable, arguments, in: directory, environment: environment, input: input) { (piece: UnsafeRawBufferPointer) -> Bool in
            output(piece)
            return true
        }
    }

    /// The same, but `output` says whether it wants more: once it says no, the output's pipe is
    /// closed (a child still writing ends by SIGPIPE), so a child that would write without end
    /// costs no more than was read.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String?, environment: [String: String], input: Int32 = -1,
        reading output: (UnsafeRawBufferPointer) -> Bool
    ) throws(SpawnError) -> Outcome {
        let outputPipe = try makePipe()
        let errorPipe: (read: Int32, write: Int32)
        do {
            errorPipe = try makePipe()
        } catch {
            close(outputPipe.read)
            close(outputPipe.write)
            throw error
        }
        let pid: pid_t
        do {
            pid = try spawn(executable, arguments, in: directory, environment: environment, input: input, output: outputPipe.write, error: errorPipe.write)
        } catch {
            for end in [outputPipe.read, outputPipe.write, errorPipe.read, errorPipe.write] { close(end) }
            throw error
        }
        close(outputPipe.write)
        close(errorPipe.write)
        var reads = 0
        var bytes = 0
        var stopped = false
        let standardError = drain(output: outputPipe.read, error: errorPipe.read) { piece in
            reads += 1
            bytes += piece.count
            if !output(piece) { stopped = true }
            return !stopped
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = raw & 0x7f
        return Outcome(
            status: signal == 0 ? (raw >> 8) & 0xff : 128 + signal, standardError: standardError, outputReads: reads, outputBytes: bytes, stoppedReading: stopped)
    }

    /// Runs to the end and returns the whole standard output.
    static func capture(
        _ executable: String, _ arguments: [String], in directory: String?, environment: [String: String]
    ) throws(SpawnError) -> (outcome: Outcome, output: [UInt8]) {
        var collected: [UInt8] = []
        let outcome = try run(executable, arguments, in: directory, environment: environment) { collected.append(contentsOf: $0) }
        return (outcome, collected)
    }

    // MARK: Spawning

    private static func spawn(
        _ executable: String, _ arguments: [String], in directory: String?, environment: [String: String], input: Int32, output: Int32, error: Int32
    ) throws(SpawnError) -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Darwin)
        // Only the three descriptors below reach the child.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif
        // dup2 onto 0, 1 and 2 clears close-on-exec on the copies; every source is above 2
        // (makePipe and the caller's input), so no action closes another's source.
        if input >= 0 {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        #if !canImport(Darwin)
        // Only the three descriptors above reach the child, as POSIX_SPAWN_CLOEXEC_DEFAULT does on
        // Darwin: a descriptor opened elsewhere without close-on-exec would otherwise live as long
        // as git does.
        if let addCloseFrom {
            _ = withUnsafeMutablePointer(to: &actions) { addCloseFrom($0, 3) }
        }
        #endif
        if let directory {
            guard let addChdir else { throw SpawnError(message: "cannot set a child's working directory on this system") }
            let result = withUnsafeMutablePointer(to: &actions) { addChdir($0, directory) }
            guard result == 0 else { throw SpawnError(message: "cannot run in '\(directory)': \(String(cString: strerror(result)))") }
        }
        let environmentLines = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let result = withCStrings([executable] + arguments) { argv in
            withCStrings(environmentLines) { envp in
                posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            }
        }
        guard result == 0 else {
            throw SpawnError(message: "cannot run \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// A pipe whose two ends are close-on-exec and above the standard descriptors.
    private static func makePipe() throws(SpawnError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        if let pipe2 {
            guard pipe2(&ends, O_CLOEXEC) == 0 else { throw SpawnError(message: "pipe: \(String(cString: strerror(errno)))") }
        } else {
            // No pipe2 (older Darwin): another thread may spawn between the two calls; on Darwin
            // POSIX_SPAWN_CLOEXEC_DEFAULT at least keeps our own children from inheriting others'.
            guard pipe(&ends) == 0 else { throw SpawnError(message: "pipe: \(String(cString: strerror(errno)))") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        for index in ends.indices where ends[index] <= 2 {
            // The process had a standard descriptor closed and the pipe took its number.
            let moved = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
            close(ends[index])
            ends[index] = moved
        }
        guard ends.allSatisfy({ $0 >= 0 }) else {
            for end in ends where end >= 0 { close(end) }
            throw SpawnError(message: "pipe: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }

    // MARK: Reading

    private static let keptErrorBytes = 65536

    /// Reads both pipes until both end (the child exited or closed them), whichever has data
    /// first, and closes them.
    /// Reads both pipes to their ends; `consume` is given each piece of the output and says
    /// whether to go on reading it (no: the output's pipe is closed there).
    private static func drain(output: Int32, error: Int32, into consume: (UnsafeRawBufferPointer) -> Bool) -> [UInt8] {
        var standardError: [UInt8] = []
        var descriptors = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: error, events: Int16(POLLIN), revents: 0)]
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { buffer.deallocate() }
        var open = 2
        while open > 0 {
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = read(descriptors[index].fd, buffer.baseAddress, buffer.count)
                if count > 0 {
                    let piece = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                    if index == 0 {
                        if !consume(piece) {
                            close(descriptors[index].fd)
                            descriptors[index].fd = -1
                            open -= 1
                        }
                    } else if standardError.count < keptErrorBytes {
                        standardError.append(contentsOf: piece.prefix(keptErrorBytes - standardError.count))
                    }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                    open -= 1
                }
            }
        }
        // Only after a failed poll: closing what is left ends a child still writing (EPIPE).
        for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
        return standardError
    }

    // MARK: C helpers

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        copies.append(nil)
        // The array is passed as a pointer to its elements for the length of the call.
        return body(copies)
    }

    #if canImport(Darwin)
    private typealias FileActions = posix_spawn_file_actions_t?
    private static var defaultHandle: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -2) }  // RTLD_DEFAULT
    #else
    private typealias FileActions = posix_spawn_file_actions_t
    private static var defaultHandle: UnsafeMutableRawPointer? { nil }  // RTLD_DEFAULT
    #endif

    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<FileActions>, UnsafePointer<CChar>) -> Int32
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<FileActions>, Int32) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` and `pipe2`, which Swift's Glibc module does not
    /// import: looked up by name.
    private static let addChdir: AddChdir? = dlsym(defaultHandle, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: AddChdir.self)
    }
    private static let pipe2: Pipe2? = dlsym(defaultHandle, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34); older systems go without.
    private static let addCloseFrom: AddCloseFrom? = dlsym(defaultHandle, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
}
