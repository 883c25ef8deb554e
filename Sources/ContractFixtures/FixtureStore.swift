import ContractFiles
import Foundation

/// The I/O edge of `contract fixtures`: writes a planned set into a folder, or checks a folder
/// against it. The folder is an ``OwnedFolder``: a new set replaces the old one in one step (a run
/// killed at any point leaves one set or the other), files the manifest does not list are never
/// overwritten or deleted, and nothing is read or written through a symbolic link.
public struct FixtureStore: Sendable {
    public let directory: URL
    private let folder: OwnedFolder

    public init(directory: String) {
        self.directory = URL(fileURLWithPath: directory)
        folder = OwnedFolder(path: directory)
    }

    public struct WriteSummary: Sendable, Equatable {
        public var written: [String] = []
        public var unchanged: [String] = []
        public var removed: [String] = []
    }

    public func write(_ fixtures: [Fixture]) throws(FixtureStoreError) -> WriteSummary {
        let previous = try readManifest()
        // Every path was checked when the manifest was read: none leaves the folder.
        let owned = Set(previous?.entries.compactMap { try? FolderPath(validating: $0.path) } ?? [])
        var summary = WriteSummary()
        var writes: [FolderPath: [UInt8]] = [:]
        // Every check before the first change, so a refused run changes nothing.
        for fixture in fixtures {
            let relative = try Self.relativePath(fixture.path)
            if let obstacle = folder.obstacle(at: relative) { throw FixtureStoreError("\(obstacle); the previous fixtures are unchanged") }
            let current = folder.read(relative)
            // A file read is there; only when none could be read is it looked for (an unreadable one).
            if !owned.contains(relative), current != nil || folder.exists(relative) {
                throw FixtureStoreError(
                    "\(shown(fixture.path)) exists and was not written by contract fixtures; move it away or choose another --out")
            }
            if current == fixture.bytes {
                summary.unchanged.append(fixture.path)
            } else {
                writes[relative] = fixture.bytes
                summary.written.append(fixture.path)
            }
        }
        let generated = Set(fixtures.map(\.path))
        let removals = owned.filter { !generated.contains($0.description) && folder.exists($0) }
        summary.removed = removals.sorted().map(\.description)
        let manifest = try Self.relativePath(FixtureManifest.fileName)
        let manifestBytes = FixtureManifest(fixtures).bytes
        if folder.read(manifest) != manifestBytes { writes[manifest] = manifestBytes }
        do {
            try folder.replace(writing: writes, removing: removals)
        } catch {
            throw FixtureStoreError("\(error); the previous fixtures are unchanged", underlying: error)
        }
        return summary
    }

    public struct CheckReport: Sendable, Equatable {
        public struct Item: Sendable, Equatable, CustomStringConvertible {
            public var kind: String
            public var path: String
            public var reason: String
            public var description: String { "\(kind): \(path): \(reason)" }
        }

        public var items: [Item] = []
        public var upToDate = 0
        public var isClean: Bool { items.isEmpty }
    }

    /// What `write` would change, without writing: missing, stale and extra fixtures, and what a
    /// killed run left behind.
    public func check(_ fixtures: [Fixture]) throws(FixtureStoreError) -> CheckReport {
        let manifest = try readManifest()
        let listed = manifest?.entriesByPath ?? [:]
        var report = CheckReport()
        for fixture in fixtures {
            let origin = "\(fixture.contractID)/\(fixture.caseName) in \(fixture.shownSource)"
            guard let current = folder.read(try Self.relativePath(fixture.path)) else {
                report.items.append(.init(kind: "missing", path: fixture.path, reason: "not generated yet for \(origin)"))
                continue
            }
            if current != fixture.bytes {
                report.items.append(.init(kind: "stale", path: fixture.path, reason: "differs from what \(origin) gives now"))
            } else if let entry = listed[fixture.path], entry.sourceHash != fixture.sourceHash {
                report.items.append(.init(kind: "stale", path: fixture.path, reason: "\(origin) or a schema it uses changed"))
            } else if listed[fixture.path] == nil {
                report.items.append(.init(kind: "stale", path: fixture.path, reason: "not listed in \(FixtureManifest.fileName)"))
            } else {
                report.upToDate += 1
            }
        }
        let generated = Set(fixtures.map(\.path))
        for entry in manifest?.entries ?? [] where !generated.contains(entry.path) {
            report.items.append(.init(
                kind: "extra", path: entry.path, reason: "\(entry.contractID)/\(entry.caseName) (\(entry.source)) no longer has this case"))
        }
        for leftover in folder.leftovers() {
            report.items.append(.init(kind: "leftover", path: leftover, reason: "left by an interrupted run; the next 'contract fixtures' removes it"))
        }
        return report
    }

    private func readManifest() throws(FixtureStoreError) -> FixtureManifest? {
        let name = try Self.relativePath(FixtureManifest.fileName)
        let contents: [UInt8]?
        do {
            contents = try folder.contents(of: name)
        } catch {
            throw FixtureStoreError(error.description, underlying: error)
        }
        guard let bytes = contents else { return nil }
        return try FixtureManifest(parsing: bytes, file: shown(FixtureManifest.fileName))
    }

    private func shown(_ path: String) -> String {
        directory.appendingPathComponent(path).path
    }

    private static func relativePath(_ text: String) throws(FixtureStoreError) -> FolderPath {
        do {
            return try FolderPath(validating: text)
        } catch {
            throw FixtureStoreError("a fixture path is not inside the folder: \(error)")
        }
    }
}
