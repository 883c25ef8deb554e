import Foundation

/// The one way a command reads a file a person named (a report, a baseline, an ignore file, an
/// OpenAPI document, the files of a contract tree): whole, but never more than a limit. Such a file may be anything, a device
/// or a file that grows while it is read included, and one of any size would be read into
/// memory whole. Each format states its limit, far beyond real use, and says when it is reached.
///
/// The size is checked before anything is allocated, and the reading stops one byte past the
/// limit, so a file that grows meanwhile is refused too. The bytes are read straight into the
/// array the parser takes (no `Data` to copy from).
public enum InputFile {
    public enum Failure: Error, Equatable, Sendable {
        /// No such file, a folder, or not readable: `errno`.
        case unreadable(Int32)
        /// Larger than the limit.
        case tooLarge
    }

    /// - Parameter regularOnly: refuse anything but a regular file, a link to one included (a
    ///   file read again that should not have changed: a pipe put in its place must not block).
    public static func read(_ path: String, limit: Int, regularOnly: Bool = false) -> Result<[UInt8], Failure> {
        // Without a writer, opening a FIFO blocks for ever: it is opened without waiting, then
        // read as any other file (a pipe with no writer reads as empty; `<(…)` has one).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (regularOnly ? O_NOFOLLOW : 0))
        guard descriptor >= 0 else { return .failure(.unreadable(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(errno)) }
        if (status.st_mode & S_IFMT) == S_IFDIR { return .failure(.unreadable(EISDIR)) }
        let regular = (status.st_mode & S_IFMT) == S_IFREG
        if regularOnly, !regular { return .failure(.unreadable(EINVAL)) }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else { return .failure(.unreadable(errno)) }
        if regular, Int(status.st_size) > limit { return .failure(.tooLarge) }
        // A regular file's size is known; a pipe or a device is read in steps up to the limit.
        var bytes = [UInt8](repeating: 0, count: regular ? Int(status.st_size) + 1 : min(limit + 1, 1 << 16))
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= limit else { return .failure(.tooLarge) }
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count))
            }
            let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.read(descriptor, base + count, buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(errno))
            }
            if read == 0 { break }
            count += read
            if count > limit { return .failure(.tooLarge) }
        }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }

    /// Why a file could not be read, as people read it: `no such file`, `is a directory`.
    public static func reason(_ failure: Failure) -> String {
        switch failure {
        case .unreadable(ENOENT): "no such file"
        case .unreadable(let code): String(cString: strerror(code)).lowercased()
        case .tooLarge: "too large"
        }
    }

    /// `1 GiB`, `64 MiB`: a limit as people read it.
    public static func describe(bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }
}
