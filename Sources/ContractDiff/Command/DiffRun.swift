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
    /// What fails the run: breaking changes (the default), or warnings too.
    public var failOn = DiffFailOn.breaking
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

/// `contract diff --fail-on`: the least severe change that fails the run (exit 1).
public enum DiffFailOn: String, Sendable, CaseIterable {
    case breaking
    case warning

    var severity: Change.Severity {
        switch self {
        case .breaking: .breaking
        case .warning: .warning
        }
    }
}

/// `contract diff` as one call: read both trees (``DiffSource``), compare them
/// (``DiffRun/compare(old:new:)``), apply the ignore file, and write the reports.
public enum DiffRun {
    /// The result's output is the console report; its exit code 0, 1 for a change at or above
    /// `--fail-on`, 2 when nothing could be compared (an argument, a tree or the ignore file is
    /// unusable) or a report could not be written.
    public static func run(_ arguments: DiffArguments) -> CommandResult<DiffResult> {
        let failOn = arguments.failOn.severity
        let requests: [ReportRequest<DiffReportKind>]
        do {
            requests = try ReportRequest.checked(arguments.reports, workingDirectory: arguments.workingDirectory)
        } catch {
            return .refused(error)
        }
        if arguments.acceptReason != nil, arguments.ignorePath == nil {
            return .refused(DiagnosticsError(argument: "--accept writes into the ignore file: give it with --ignore FILE (it is made when it does not exist)"))
        }
        if arguments.acceptExpires != nil, arguments.acceptReason == nil {
            return .refused(DiagnosticsError(argument: "--expires dates the entries --accept writes: give --accept REASON too"))
        }
        switch compared(arguments, failOn: failOn) {
        case .failure(let error):
            return .stopped(error, consequence: "nothing was compared")
        case .success(let result):
            var unwritten: [Diagnostic] = []
            for request in requests {
                do {
                    try OutputFile.write(DiffReport.render(result, as: request.kind, failOn: failOn), to: request.url(in: arguments.workingDirectory).path)
                } catch {
                    unwritten.append(.argumentError("cannot write the \(request.kind.rawValue) report to '\(request.path)': \(error)"))
                }
            }
            return CommandResult(
                exitCode: unwritten.isEmpty ? result.exitCode(failOn: failOn) : 2, summary: result,
                output: DiffReport.render(result, as: .text, failOn: failOn), diagnostics: unwritten)
        }
    }

    /// The read, compare and ignore stages: both trees compared, with the ignore file applied
    /// (and written first, with `--accept`).
    private static func compared(_ arguments: DiffArguments, failOn: Change.Severity) -> Result<DiffResult, DiagnosticsError> {
        var ignore: DiffIgnore?
        if let path = arguments.ignorePath {
            let full = path.hasPrefix("/") ? path : arguments.workingDirectory + "/" + path
            switch InputFile.read(full, limit: DiffIgnore.maxFileBytes) {
            case .success(let bytes):
                switch DiffIgnore.parse(bytes, file: path) {
                case .success(let parsed): ignore = parsed
                case .failure(let error): return .failure(error)
                }
            case .failure(.unreadable(ENOENT)) where arguments.acceptReason != nil:
                ignore = DiffIgnore(entries: [])
            case .failure(.unreadable(ENOENT)):
                return .failure(DiagnosticsError([.error("no such ignore file (--accept REASON makes it)", file: path)]))
            case .failure(.tooLarge):
                return .failure(DiagnosticsError([.error(DiffIgnore.tooLargeMessage, file: path)]))
            case .failure(let failure):
                return .failure(DiagnosticsError([.error("cannot read the ignore file: \(InputFile.reason(failure))", file: path)]))
            }
        }
        let old: DiffTree
        let new: DiffTree
        switch (DiffSource.load(arguments.old, workingDirectory: arguments.workingDirectory), DiffSource.load(arguments.new, workingDirectory: arguments.workingDirectory)) {
        case (.success(let a), .success(let b)):
            (old, new) = (a, b)
        case (.failure(let a), .failure(let b)):
            return .failure(DiagnosticsError(a.diagnostics + b.diagnostics))
        case (.failure(let error), _), (_, .failure(let error)):
            return .failure(error)
        }
        var result = compare(old: old, new: new)
        if var accepted = ignore, let reason = arguments.acceptReason, let path = arguments.ignorePath {
            let today = arguments.today ?? CalendarDay.today()
            let open = accepted.apply(to: result.changes, today: today).kept.filter { $0.severity <= failOn }
            do {
                accepted = try accepted.accepting(open, reason: reason, expires: arguments.acceptExpires)
                try OutputFile.write(accepted.text, to: path.hasPrefix("/") ? path : arguments.workingDirectory + "/" + path)
            } catch let error as DiagnosticsError {
                return .failure(error)
            } catch {
                return .failure(DiagnosticsError([.error("cannot write the ignore file: \(error)", file: path)]))
            }
            ignore = accepted
        }
        if let ignore {
            let applied = ignore.apply(to: result.changes, today: arguments.today ?? CalendarDay.today())
            result = DiffResult(old: result.old, new: result.new, changes: applied.kept, ignored: applied.ignored, unusedIgnores: applied.unused)
        }
        return .success(result)
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
}
