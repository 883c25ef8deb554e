#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one writer of usage files (``UsageLog``), shared by the stubs and the mock server: when
/// the environment names a folder (`CONTRACT_USAGE_DIR`), each process that answers a request
/// makes a file of its own there, `usage-<pid>-<random>.jsonl`, and appends one line per request.
///
/// - One file per process, made with `O_CREAT | O_EXCL | O_NOFOLLOW`: test processes running in
///   parallel never share a file, and a link planted at the name is never followed.
/// - One `write` per line, under a lock, to a file opened with `O_APPEND`: a process that crashes
///   keeps every line it finished, and a reader sees at most one incomplete last line.
/// - Off by default; with no folder named, ``testing`` is nil and recording costs one check.
public final class UsageRecorder: @unchecked Sendable {
    /// Why a usage file could not be made: the folder and what the system said.
    public struct CannotRecord: Error, Sendable, CustomStringConvertible {
        public let folder: String
        public let reason: String

        /// `cannot record usage in '.build/usage': cannot make the folder: No such file or directory`.
        public var description: String { "cannot record usage in '\(folder)': \(reason)" }
    }

    /// The environment variable that names the folder, relative to the process's working folder
    /// (a package's root under `swift test`).
    public static let environmentVariable = "CONTRACT_USAGE_DIR"

    /// The process's recorder for the stubs, nil when the environment names no folder or the file
    /// could not be made (said once on standard error).
    public static let testing: UsageRecorder? = fromEnvironment(recorder: "ContractTesting")

    /// A recorder for `recorder` (`contract serve`) writing into `folder`; nil, with the reason on
    /// standard error, when the file cannot be made.
    public static func start(folder: String, recorder: String) -> UsageRecorder? {
        start(folder: folder, recorder: recorder, namedBy: nil)
    }

    /// A recorder for `recorder` writing into `folder`, or why none could be made, for a caller
    /// that says so its own way (`contract serve --usage-dir` stops with it).
    public static func create(folder: String, recorder: String) throws(CannotRecord) -> UsageRecorder {
        try create(folder: folder, recorder: recorder, suffixes: randomSuffixes())
    }

    /// The recorder of `recorder` when the environment names a folder (``environmentVariable``);
    /// nil when it names none, or (said once on standard error) when the file cannot be made. A
    /// process keeps the one it gets in a static, as ``testing`` does.
    public static func fromEnvironment(recorder: String) -> UsageRecorder? {
        guard let value = getenv(environmentVariable), value.pointee != 0 else { return nil }
        return start(folder: String(cString: value), recorder: recorder, namedBy: environmentVariable)
    }

    /// `create(folder:recorder:)` with the names' suffixes given, so a test can plant a file or a
    /// link at the names tried and see that none is opened.
    @_spi(Testing) public static func create(folder: String, recorder: String, suffixes: [String]) throws(CannotRecord) -> UsageRecorder {
        switch makeFile(in: folder, suffixes: suffixes) {
        case .made(let descriptor, let path):
            let made = UsageRecorder(descriptor: descriptor, path: path, recorder: recorder)
            made.write(UsageLog.headerLine(recorder: recorder, process: Int(getpid())))
            return made
        case .refused(let message):
            throw CannotRecord(folder: folder, reason: message)
        }
    }

    /// - Parameter variable: the environment variable that named the folder, said in the message.
    private static func start(folder: String, recorder: String, namedBy variable: String?) -> UsageRecorder? {
        do {
            return try create(folder: folder, recorder: recorder)
        } catch {
            printToStandardError("\(recorder): \(error)\(variable.map { " (\($0))" } ?? "")\n")
            return nil
        }
    }

    /// The file's path, for a test that reads it back.
    public let path: String
    private let descriptor: Int32
    /// Who writes (`ContractTesting`, `contract serve`), to say so when writing fails.
    private let recorder: String
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var failed = false

    private init(descriptor: Int32, path: String, recorder: String) {
        self.descriptor = descriptor
        self.path = path
        self.recorder = recorder
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        close(descriptor)
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Appends one record's line.
    public func record(_ record: UsageRecord) {
        write(UsageLog.line(record))
    }

    private func write(_ line: [UInt8]) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !failed else { return }
        var written = 0
        while written < line.count {
            let count = line[written...].withUnsafeBytes { buffer in Self.systemWrite(descriptor, buffer) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                // A full disk: the lines so far stay whole, and coverage will say the file ends early.
                failed = true
                let reason = count < 0 ? String(cString: strerror(errno)) : "nothing was written"
                Self.printToStandardError("\(recorder): usage recording stopped, writing '\(path)' failed: \(reason)\n")
                return
            }
            written += count
        }
    }

    /// Makes the folder if it is missing (one level), then a new file in it that no link can stand for.
    private enum Made {
        case made(Int32, String)
        case refused(String)
    }

    private static func makeFile(in folder: String, suffixes: [String]) -> Made {
        if mkdir(folder, 0o755) != 0, errno != EEXIST {
            return .refused("cannot make the folder: \(String(cString: strerror(errno)))")
        }
        for suffix in suffixes {
            let path = (folder.hasSuffix("/") ? folder : folder + "/") + "usage-\(getpid())-\(suffix).jsonl"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return .made(descriptor, path) }
            if errno != EEXIST { return .refused(String(cString: strerror(errno))) }
        }
        return .refused("every name tried was taken")
    }

    /// Eight names are plenty: two processes draw the same 64 random bits almost never, and a
    /// name taken by a planted file is passed over.
    private static func randomSuffixes() -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in String(generator.next() as UInt64, radix: 16) }
    }

    private static func printToStandardError(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { buffer in systemWrite(2, buffer) }
    }

    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        #if canImport(Darwin)
        return Darwin.write(descriptor, base, buffer.count)
        #elseif canImport(Glibc)
        return Glibc.write(descriptor, base, buffer.count)
        #else
        return Musl.write(descriptor, base, buffer.count)
        #endif
    }
}
