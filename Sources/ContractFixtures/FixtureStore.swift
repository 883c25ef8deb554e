import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The I/O edge of `contract fixtures`: writes a planned set into a folder, or checks a folder
/// against it. Changed files are staged, then renamed into place, the manifest last; files the
/// previous manifest does not list are never overwritten or deleted.
public struct FixtureStore: Sendable {
    public let directory: URL

    public init(directory: String) {
        self.directory = URL(fileURLWithPath: directory)
    }

    public struct WriteSummary: Sendable, Equatable {
        public var written: [String] = []
        public var unchanged: [String] = []
        public var removed: [String] = []
    }

    public func write(_ fixtures: [Fixture]) throws(FixtureStoreError) -> WriteSummary {
        let previous = try readManifest()
        let owned = Set(previous?.entries.map(\.path) ?? [])
        // Every check before the first write, so a refused run changes nothing.
        for fixture in fixtures where !owned.contains(fixture.path) && exists(fixture.path) {
            throw FixtureStoreError(
                "\(url(fixture.path).path) exists and was not written by contract fixtures; move it away or choose another --out")
        }
        var summary = WriteSummary()
        // Stage every changed file beside its target first; only when all are on disk are they
        // renamed into place, so a run that fails or is interrupted while writing leaves the
        // previous set as it was (and at worst a hidden temporary file, removed by the next run).
        var staged: [(temporary: URL, target: URL)] = []
        do {
            for fixture in fixtures {
                let target = url(fixture.path)
                if let current = try? Data(contentsOf: target), Array(current) == fixture.bytes {
                    summary.unchanged.append(fixture.path)
                    continue
                }
                let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).contract-tmp")
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(fixture.bytes).write(to: temporary)
                staged.append((temporary, target))
                summary.written.append(fixture.path)
            }
        } catch {
            for file in staged { try? FileManager.default.removeItem(at: file.temporary) }
            throw FixtureStoreError("cannot write into \(directory.path): \(error.localizedDescription); the previous fixtures are unchanged")
        }
        do {
            for file in staged where rename(file.temporary.path, file.target.path) != 0 {
                throw FixtureStoreError("cannot move \(file.temporary.path) into place (errno \(errno))")
            }
            let generated = Set(fixtures.map(\.path))
            for path in owned.sorted() where !generated.contains(path) {
                try? FileManager.default.removeItem(at: url(path))
                summary.removed.append(path)
                let folder = url(path).deletingLastPathComponent()
                if (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true, folder != directory {
                    try? FileManager.default.removeItem(at: folder)
                }
            }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(FixtureManifest(fixtures).bytes).write(to: url(FixtureManifest.fileName), options: .atomic)
        } catch let error as FixtureStoreError {
            throw error
        } catch {
            throw FixtureStoreError("cannot write into \(directory.path): \(error.localizedDescription)")
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

    /// What `write` would change, without writing: missing, stale and extra fixtures.
    public func check(_ fixtures: [Fixture]) throws(FixtureStoreError) -> CheckReport {
        let manifest = try readManifest()
        let listed = manifest?.entriesByPath ?? [:]
        var report = CheckReport()
        for fixture in fixtures {
            let origin = "\(fixture.contractID)/\(fixture.caseName) in \(fixture.source)"
            guard let current = try? Data(contentsOf: url(fixture.path)) else {
                report.items.append(.init(kind: "missing", path: fixture.path, reason: "not generated yet for \(origin)"))
                continue
            }
            if Array(current) != fixture.bytes {
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
        return report
    }

    private func readManifest() throws(FixtureStoreError) -> FixtureManifest? {
        guard let data = try? Data(contentsOf: url(FixtureManifest.fileName)) else { return nil }
        return try FixtureManifest(parsing: Array(data))
    }

    private func url(_ path: String) -> URL {
        directory.appendingPathComponent(path)
    }

    private func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: url(path).path)
    }
}
