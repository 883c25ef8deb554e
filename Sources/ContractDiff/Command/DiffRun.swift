import ContractFiles
import ContractFixtures
import ContractJSON
import ContractModel
import Foundation

/// `contract diff OLD NEW` as the command line gives it.
public struct DiffArguments: Sendable {
    public var old: String
    public var new: String
    /// Where relative paths and git revisions are read.
    public var workingDirectory: String
    /// `breaking` (the default) or `warning`.
    public var failOn = "breaking"
    /// An ignore file (`contract-diff-ignore`): changes accepted, each with a reason.
    public var ignorePath: String?
    /// `KIND=PATH` for `text`, `json`, `markdown`, `junit`.
    public var reports: [String] = []
    /// `YYYY-MM-DD` in UTC, for ignore entries' expiry; today when nil.
    public var today: String?
    /// `--accept REASON`: every change at or above `failOn` is written into the ignore file with
    /// this reason (the file is made when it does not exist), then counts as ignored.
    public var acceptReason: String?
    /// `--expires DATE` for the entries `--accept` writes.
    public var acceptExpires: String?

    public init(old: String, new: String, workingDirectory: String) {
        self.old = old
        self.new = new
        self.workingDirectory = workingDirectory
    }
}

/// What a `contract diff` came to.
public enum DiffOutcome: Sendable {
    /// An argument, a tree or the ignore file is unusable: nothing was compared (exit 2).
    case invalid(DiffError)
    /// The trees were compared; `text` is the console report, `exitCode` 0 or 1, and
    /// `reportErrors` the report files that could not be written (exit 2).
    case finished(result: DiffResult, text: String, exitCode: Int32, reportErrors: [String])
}

/// `contract diff` as one call: read both trees (``DiffSource``), compare them
/// (``DiffRun/compare(old:new:)``), apply the ignore file, and write the reports.
public enum DiffRun {
    public static func run(_ arguments: DiffArguments) -> DiffOutcome {
        guard let failOn = Change.Severity(rawValue: arguments.failOn), failOn != .safe else {
            return .invalid(DiffError([.argumentError("--fail-on must be 'breaking' or 'warning', found '\(arguments.failOn)'")]))
        }
        var requests: [(kind: DiffReportKind, path: String)] = []
        for text in arguments.reports {
            guard let equals = text.firstIndex(of: "="), let kind = DiffReportKind(rawValue: String(text[..<equals])), equals < text.index(before: text.endIndex)
            else {
                let kinds = DiffReportKind.allCases.map { "'\($0.rawValue)=PATH'" }.joined(separator: ", ")
                return .invalid(DiffError([.argumentError("--report must be one of \(kinds), found '\(text)'")]))
            }
            requests.append((kind, String(text[text.index(after: equals)...])))
        }
        if arguments.acceptReason != nil, arguments.ignorePath == nil {
            return .invalid(DiffError([.argumentError("--accept writes into the ignore file: give it with --ignore FILE (it is made when it does not exist)")]))
        }
        if arguments.acceptExpires != nil, arguments.acceptReason == nil {
            return .invalid(DiffError([.argumentError("--expires dates the entries --accept writes: give --accept REASON too")]))
        }
        var ignore: DiffIgnore?
        if let path = arguments.ignorePath {
            let full = path.hasPrefix("/") ? path : arguments.workingDirectory + "/" + path
            switch InputFile.read(full, limit: DiffIgnore.maxFileBytes) {
            case .success(let bytes):
                switch DiffIgnore.parse(bytes, file: path) {
                case .success(let parsed): ignore = parsed
                case .failure(let error): return .invalid(error)
                }
            case .failure(.unreadable(ENOENT)) where arguments.acceptReason != nil:
                ignore = DiffIgnore(entries: [])
            case .failure(.unreadable(ENOENT)):
                return .invalid(DiffError([.error("no such ignore file (--accept REASON makes it)", file: path)]))
            case .failure(.tooLarge):
                return .invalid(DiffError([.error(
                    "expected an ignore file of at most \(InputFile.describe(bytes: DiffIgnore.maxFileBytes)) (\(ByteCount.grouped(DiffIgnore.maxEntries)) entries at most); this file is larger",
                    file: path)]))
            case .failure(let failure):
                return .invalid(DiffError([.error("cannot read the ignore file: \(InputFile.reason(failure))", file: path)]))
            }
        }
        let old: DiffTree
        let new: DiffTree
        switch (DiffSource.load(arguments.old, workingDirectory: arguments.workingDirectory), DiffSource.load(arguments.new, workingDirectory: arguments.workingDirectory)) {
        case (.success(let a), .success(let b)):
            (old, new) = (a, b)
        case (.failure(let a), .failure(let b)):
            return .invalid(DiffError(a.diagnostics + b.diagnostics))
        case (.failure(let error), _), (_, .failure(let error)):
            return .invalid(error)
        }
        var result = compare(old: old, new: new)
        if var accepted = ignore, let reason = arguments.acceptReason, let path = arguments.ignorePath {
            let today = arguments.today ?? CalendarDay.today()
            let open = accepted.apply(to: result.changes, today: today).kept.filter { $0.severity <= failOn }
            do {
                accepted = try accepted.accepting(open, reason: reason, expires: arguments.acceptExpires)
                try Self.write(accepted.text, to: path.hasPrefix("/") ? path : arguments.workingDirectory + "/" + path)
            } catch let error as DiffError {
                return .invalid(error)
            } catch {
                return .invalid(DiffError([.error("cannot write the ignore file: \(error)", file: path)]))
            }
            ignore = accepted
        }
        if let ignore {
            let applied = ignore.apply(to: result.changes, today: arguments.today ?? CalendarDay.today())
            result = DiffResult(old: result.old, new: result.new, changes: applied.kept, ignored: applied.ignored, unusedIgnores: applied.unused)
        }
        var reportErrors: [String] = []
        for request in requests {
            let path = request.path.hasPrefix("/") ? request.path : arguments.workingDirectory + "/" + request.path
            do {
                try Self.write(DiffReport.render(result, as: request.kind, failOn: failOn), to: path)
            } catch {
                reportErrors.append("cannot write the \(request.kind.rawValue) report to '\(request.path)': \(error)")
            }
        }
        return .finished(
            result: result, text: DiffReport.render(result, as: .text, failOn: failOn), exitCode: result.exitCode(failOn: failOn), reportErrors: reportErrors)
    }

    /// The changes from `old` to `new`, in memory: for tests and tools.
    public static func compare(old: DiffTree, new: DiffTree) -> DiffResult {
        let fixtures = FixturePlanner(old.set).plan().fixtures
        var served: [String: JSONValue] = [:]
        for fixture in fixtures {
            if let document = try? JSONParser().parse(fixture.bytes) { served["\(fixture.contractID)/\(fixture.caseName)"] = document.value }
        }
        var comparer = TreeComparer(old: TreeView(old.set, sources: old.sources), new: TreeView(new.set, sources: new.sources), oldFixtures: served)
        comparer.compare()
        return DiffResult(old: old.shownAs, new: new.shownAs, changes: comparer.changes)
    }

    /// Written beside the destination and renamed over it, never through a link: a report is
    /// whole or absent (``OutputFile``).
    private static func write(_ text: String, to path: String) throws(FolderError) {
        try OutputFile.write(text, to: path)
    }
}
