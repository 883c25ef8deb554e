import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replacing a whole folder in one step, and holding the right to do so.
enum FolderSwap {
    /// Exchanges two folders of one file system atomically: each path then names the other's
    /// contents, with no moment where either is missing. Returns 0, or the errno of the failure
    /// (`ENOSYS`, `EINVAL`: the file system cannot).
    static func exchange(_ first: String, _ second: String) -> Int32 {
        #if canImport(Glibc)
        // renameat2(2) is in glibc since 2.28, but Swift's Glibc module does not declare it.
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return ENOSYS }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let exchangeFlag: UInt32 = 1 << 1  // RENAME_EXCHANGE
        return renameat2(AT_FDCWD, first, AT_FDCWD, second, exchangeFlag) == 0 ? 0 : errno
        #elseif canImport(Darwin)
        return renamex_np(first, second, UInt32(RENAME_SWAP)) == 0 ? 0 : errno
        #else
        return ENOSYS
        #endif
    }

    /// Holds an exclusive lock on a folder (here, the owned folder's parent, which a swap never
    /// replaces) while a change is made, so two runs never build over each other.
    final class Lock {
        private let descriptor: Int32

        /// Waits up to `patience` for a run that holds the lock to finish.
        init(_ folder: String, patience: Duration = .seconds(60)) throws(FolderError) {
            descriptor = open(folder, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FolderError.system("cannot open \(folder)", errno: errno) }
            let clock = ContinuousClock()
            let deadline = clock.now + patience
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else {
                    close(descriptor)
                    throw FolderError("another run has been writing beside \(folder) for over \(patience); try again when it ends")
                }
                usleep(20_000)
            }
        }

        deinit {
            close(descriptor)  // releases the lock
        }
    }
}
