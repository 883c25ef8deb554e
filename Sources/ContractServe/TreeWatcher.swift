import Dispatch
import Foundation

/// Notices edits to a contracts folder by polling each file's size and modification time (the
/// same on Linux and macOS, in a container and on a network share, where file events are not),
/// and says so once the folder has been still for one interval, so an editor's save of several
/// files (or a `git checkout`) is one reload, not several.
final class TreeWatcher: @unchecked Sendable {
    private let directory: String
    private let interval: Duration
    private let onChange: @Sendable () -> Void
    private let queue = DispatchQueue(label: "contract.serve.watch")
    private var timer: DispatchSourceTimer?
    // Read and written on `queue` only.
    private var last: [String]
    private var changing = false

    init(directory: String, interval: Duration, onChange: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.interval = interval
        self.onChange = onChange
        last = Self.listing(directory)
    }

    func start() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
        self.timer = timer
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    private func poll() {
        let now = Self.listing(directory)
        if now != last {
            last = now
            changing = true
        } else if changing {
            changing = false
            onChange()
        }
    }

    /// Every file below the folder with its size and modification time, sorted; hidden
    /// folders (`.git`) are left out.
    static func listing(_ directory: String) -> [String] {
        let root = URL(fileURLWithPath: directory)
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]) else { return [] }
        var entries: [String] = []
        while let url = walker.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let stamp = values.contentModificationDate?.timeIntervalSince1970 ?? 0
            entries.append("\(url.path)\u{0}\(values.fileSize ?? -1)\u{0}\(stamp)")
        }
        return entries.sorted()
    }
}
