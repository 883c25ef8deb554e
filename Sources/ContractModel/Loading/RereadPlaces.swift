import ContractJSON
import Foundation

/// The places of a file the load stage parsed without them: the file read again through the
/// reader that first read it, and parsed whole with them, the first time a diagnostic asks where a
/// value is; kept for the next (the document the load kept may hold only part of the tree,
/// ``CaseStream``). A clean tree never reads a file twice, and its documents hold neither
/// their text nor a table of where each value starts (a large contract's locations and line index
/// were a sixth of the load stage's peak).
///
/// A file that changed after it was read (its length or digest differs) gives no places: its
/// diagnostics then name the file without a line rather than a wrong one.
final class RereadPlaces: JSONPlaceSource, @unchecked Sendable {
    /// The length and a digest of a text, to know it again.
    struct Digest: Equatable {
        var count: Int
        var hash: Int

        init(_ bytes: [UInt8]) {
            count = bytes.count
            // Seeded per process, as it needs to be: both texts are hashed in the same one.
            var hasher = Hasher()
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hash = hasher.finalize()
        }
    }

    private let read: @Sendable () -> [UInt8]?
    private let digest: Digest
    private let parser: JSONParser
    /// Guards what follows: documents are shared by a run's tasks.
    private let lock = NSLock()
    /// Nil until asked; then the placed document, or nil inside when there is none to be had.
    private var placed: JSONDocument??
    private var reads = 0
    private var changedSinceRead = false

    /// What the load stage says of a file that changed while it was read.
    static let changedMessage = "the file changed while it was being read, so its problems are shown without their lines and some may be missing: run the command again"

    /// Whether the file was read again and found changed (or gone).
    var changed: Bool { lock.withLock { changedSinceRead } }

    /// - Parameters:
    ///   - read: the file's bytes read again; nil when it cannot be read.
    ///   - text: the text as first read, to know it again.
    ///   - parser: the settings it was parsed with (the same shape of value comes of the same).
    init(read: @escaping @Sendable () -> [UInt8]?, text: [UInt8], parser: JSONParser) {
        self.read = read
        digest = Digest(text)
        var placing = parser
        placing.tracksLocations = true
        placing.keepsText = false
        self.parser = placing
    }

    /// How many times the file was read again (for tests: a clean tree reads none).
    var rereads: Int { lock.withLock { reads } }

    func text() -> [UInt8]? {
        lock.withLock { unlockedText() }
    }

    func placedDocument() -> JSONDocument? {
        lock.withLock {
            if let placed { return placed }
            // The text given back as it is parsed: only the tree and its places are kept.
            let document = unlockedText().flatMap { (text: [UInt8]) -> JSONDocument? in
                var text = text
                return try? parser.parse(taking: &text)
            }
            placed = .some(document)
            return document
        }
    }

    private func unlockedText() -> [UInt8]? {
        reads += 1
        guard let bytes = read(), Digest(bytes) == digest else {
            changedSinceRead = true
            return nil
        }
        return bytes
    }
}
