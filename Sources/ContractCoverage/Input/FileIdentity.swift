import Foundation

/// A file as the file system knows it: its device and inode, whatever path names it. The run
/// compares reports with its inputs by it, and reads a usage folder or file met twice once.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    /// Nil when nothing is at `path`; `following` a link at it, or the link itself.
    init?(_ path: String, following: Bool) {
        var status = stat()
        guard (following ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
