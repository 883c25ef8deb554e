import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal to give a child as its standard output: what a person's terminal is, so
/// `--color auto` sees one (`isatty`) where a pipe would not. The child opens the terminal's
/// device by path (``ChildProcess/Output/file(_:)``); this side reads what it wrote.
final class PseudoTerminal {
    struct OpenError: Error, CustomStringConvertible {
        let description: String
    }

    private let controller: Int32
    /// `/dev/pts/N`.
    let devicePath: String

    init() throws {
        // posix_openpt, grantpt, unlockpt and ptsname are not imported by Swift's Glibc module
        // (they need _XOPEN_SOURCE): looked up by name, as ChildProcess does for its own.
        guard let openpt = Self.function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
            let grant = Self.function("grantpt", as: (@convention(c) (Int32) -> Int32).self),
            let unlock = Self.function("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
            let name = Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        else { throw OpenError(description: "no pseudo-terminal functions in the C library") }
        // Close-on-exec: no other test's child keeps the controller open.
        controller = openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard controller >= 0 else { throw OpenError(description: "posix_openpt: \(String(cString: strerror(errno)))") }
        guard grant(controller) == 0, unlock(controller) == 0, let path = name(controller) else {
            close(controller)
            throw OpenError(description: "cannot unlock the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        devicePath = String(cString: path)
    }

    deinit {
        close(controller)
    }

    /// Everything written to the terminal, once every process that had it open has closed it
    /// (the read then fails with EIO): call it after the child has ended. The terminal turns
    /// each line break into CR LF.
    func output() -> String {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(controller, &buffer, buffer.count)
            if count > 0 {
                data += buffer[0..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func function<F>(_ name: String, as type: F.Type) -> F? {
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }
}
