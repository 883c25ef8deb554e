import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls the owned folder needs, none of which follows a symbolic link.
enum FileSystem {
    enum Kind: Equatable {
        case missing, file, directory, link, other
    }

    /// What is at `path` itself: a link is a link, never what it points to.
    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .other
        }
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    static func names(in directory: String) throws(FolderError) -> [String] {
        try entries(in: directory).map(\.name)
    }

    /// The entries of a folder, sorted by name bytes, with what each is (from the listing itself
    /// where the file system says, so a folder of thousands costs no `lstat` per entry).
    static func entries(in directory: String) throws(FolderError) -> [(name: String, kind: Kind)] {
        guard let stream = opendir(directory) else { throw FolderError.system("cannot list \(directory)", errno: errno) }
        defer { closedir(stream) }
        var entries: [(name: String, kind: Kind)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            guard name != ".", name != ".." else { continue }
            let kind: Kind
            switch entry.pointee.d_type {
            case UInt8(DT_DIR): kind = .directory
            case UInt8(DT_REG): kind = .file
            case UInt8(DT_LNK): kind = .link
            case UInt8(DT_UNKNOWN): kind = Self.kind(directory + "/" + name)
            default: kind = .other
            }
            entries.append((name, kind))
        }
        return entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The bytes of the regular file at `path`, never through a link at its end.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes += buffer[0..<count]
        }
    }

    /// Creates a new file (never replacing one, never through a link) holding `bytes`.
    static func create(_ path: String, _ bytes: [UInt8]) throws(FolderError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw FolderError.system("cannot create \(path)", errno: errno) }
        defer { close(descriptor) }
        try writeAll(bytes[...], to: descriptor, path: path)
    }

    /// Writes every byte to an open file, however many calls it takes (`path` names it in errors).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FolderError) {
        try writeAll(bytes[...], to: descriptor, path: path)
    }

    static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, path: String) throws(FolderError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            let code = errno
            if count < 0 && code == EINTR { continue }
            guard count > 0 else { throw FolderError.system("cannot write \(path)", errno: code) }
            written += count
        }
    }

    /// The folder and any missing folders above it (the path a person gave, links and all).
    static func makeDirectoryPath(_ path: String) throws(FolderError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FolderError("cannot create the folder \(path): \(error.localizedDescription)", underlying: error)
        }
    }

    static func makeDirectory(_ path: String, mode: mode_t = 0o777) throws(FolderError) {
        guard mkdir(path, mode) == 0 || (errno == EEXIST && kind(path) == .directory) else {
            throw FolderError.system("cannot create the folder \(path)", errno: errno)
        }
    }

    /// A file's second name in another folder of the same file system, or a copy where links
    /// are not possible; either way the same bytes and permissions.
    static func carry(file source: String, to target: String) throws(FolderError) {
        if link(source, target) == 0 { return }
        guard let bytes = read(source) else { throw FolderError.system("cannot read \(source)", errno: errno) }
        try create(target, bytes)
        if let mode = mode(source) { chmod(target, mode) }
    }

    static func carry(link source: String, to target: String) throws(FolderError) {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(source, &buffer, buffer.count - 1)
        guard length >= 0 else { throw FolderError.system("cannot read the link \(source)", errno: errno) }
        let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard symlink(destination, target) == 0 else { throw FolderError.system("cannot copy the link \(source)", errno: errno) }
    }

    /// Removes `path` and, for a folder, everything in it; a link is removed, never followed.
    /// Never crosses into another file system (a mount inside is left, with what it holds), and
    /// makes folders writable first so a read-only one inside does not stop it.
    static func removeTree(_ path: String) {
        guard kind(path) == .directory else {
            unlink(path)
            return
        }
        removeContents(of: path, device: device(path))
        rmdir(path)
    }

    private static func removeContents(of folder: String, device: UInt64?) {
        chmod(folder, 0o700)
        for entry in (try? entries(in: folder)) ?? [] {
            let child = folder + "/" + entry.name
            if entry.kind == .directory {
                guard Self.device(child) == device else { continue }
                removeContents(of: child, device: device)
                rmdir(child)
            } else {
                unlink(child)
            }
        }
    }

    /// The file system `path` is on (links not followed).
    static func device(_ path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt64(info.st_dev)
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// `code` as an error value that can be switched on (`POSIXError.Code.ENOSPC`).
    static func posixError(_ code: Int32) -> any Error {
        POSIXErrorCode(rawValue: code).map { POSIXError($0) } ?? NSError(domain: NSPOSIXErrorDomain, code: Int(code))
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif

/// Why an owned folder could not be read or changed: a message that says what and where, and
/// the cause (the operating system's error, or Foundation's) for callers that act on it.
public struct FolderError: Error, Sendable, CustomStringConvertible {
    /// What failed and where, then why: `cannot create /out/a.json: No space left on device`.
    public let description: String
    /// The cause, when a call failed: a `POSIXError` for a system call (`ENOSPC`, `EACCES`…), or
    /// the error Foundation threw. Nil for refusals of the folder's own rules (a link in the way).
    public let underlying: (any Error)?

    init(_ description: String, underlying: (any Error)? = nil) {
        self.description = description
        self.underlying = underlying
    }

    /// `what` failed with the system error `code` (read `errno` straight after the call).
    static func system(_ what: String, errno code: Int32) -> FolderError {
        FolderError("\(what): \(FileSystem.describe(code))", underlying: FileSystem.posixError(code))
    }

    /// The system error number of the cause (`ENOSPC`, `EACCES`…), also when Foundation wraps it.
    public var errno: Int32? {
        var cause = underlying
        // Foundation's file errors carry the system's as their own underlying error.
        for _ in 0..<4 {
            guard let error = cause else { return nil }
            if let error = error as? POSIXError { return error.code.rawValue }
            let object = error as NSError
            if object.domain == NSPOSIXErrorDomain { return Int32(object.code) }
            cause = object.userInfo[NSUnderlyingErrorKey] as? any Error
        }
        return nil
    }
}
