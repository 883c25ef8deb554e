import ContractFiles
import ContractModel
import ContractVerifier
import Foundation

/// `contract coverage [DIR]` as the command line gives it.
public struct CoverageArguments: Sendable {
    public var directory: String
    /// Where relative paths are read and written.
    public var workingDirectory: String
    /// Folders of usage files (`CONTRACT_USAGE_DIR` of the test runs).
    public var usageFolders: [String] = []
    /// verify's JSON reports: one run, or every shard of one.
    public var verifyReports: [String] = []
    /// The OpenAPI document the contracts came from, or the team's current one.
    public var openAPIDocument: String?
    public var gate = CoverageGate()
    /// `KIND=PATH` for `json`, `markdown`, `html`.
    public var reports: [String] = []

    public init(directory: String, workingDirectory: String) {
        self.directory = directory
        self.workingDirectory = workingDirectory
    }
}

/// `contract coverage` as one call: load the contracts, read what was given (usage, reports, a
/// document), join them (``CoverageJoin``), apply the gate and write the reports.
public enum CoverageRun {
    /// The result's output is the console report; its exit code 0, 1 when the gate found a gap,
    /// 2 when an input cannot be used (an argument, the contracts, a usage file, a report, the
    /// document) or a report could not be written.
    public static func run(_ arguments: CoverageArguments) -> CommandResult<CoverageResult> {
        let requests: [ReportRequest<CoverageReportKind>]
        do {
            requests = try ReportRequest.checked(arguments.reports, workingDirectory: arguments.workingDirectory)
            try check(arguments)
            try checkNoReportIsAnInput(requests, arguments)
        } catch {
            return .refused(error)
        }
        // The usage files and the reports are read while the contracts load.
        let inputs = Background { [arguments] in readInputs(arguments) }
        var set: ContractSet
        // `contracts/` and `contracts` name one folder; its files are shown under the name given.
        let directory = withoutTrailingSlashes(path(arguments.directory, in: arguments))
        let shownDirectory = withoutTrailingSlashes(arguments.directory)
        do {
            // Coverage reads which cases there are, and validates nothing with their schemas.
            set = try ContractLoader.loadValid(directory: directory, checksSchemas: false)
        } catch {
            _ = inputs.result()
            return .invalidContracts(error, directory: arguments.directory, consequence: "nothing was joined")
        }
        // Files as the user named their folder (`contracts/pets/get.json`), not from the root.
        for index in set.contracts.indices where set.contracts[index].file.hasPrefix(directory + "/") {
            set.contracts[index].file = shownDirectory + set.contracts[index].file.dropFirst(directory.count)
        }
        let joined = join(arguments, set: set, inputs: inputs.result(), requests: requests)
        // The loaded documents are freed on another thread while the reports are rendered.
        _ = Retired(consume set)
        var (result, warnings): (CoverageResult, [Diagnostic])
        switch joined {
        case .success(let value): (result, warnings) = value
        case .failure(let error): return .stopped(error, consequence: "nothing was written")
        }
        result.gaps = arguments.gate.gaps(in: result)
        // Each report file and the console, rendered side by side; written one after another.
        let finished = result
        let gate = arguments.gate
        let kinds = requests.map(\.kind)
        let rendered = Concurrently.map(kinds.count + 1) { index in
            index == kinds.count ? CoverageText.render(finished, gate: gate) : CoverageReport.render(finished, as: kinds[index], gate: gate)
        }
        var unwritten: [Diagnostic] = []
        for (index, request) in requests.enumerated() {
            do {
                try OutputFile.write(rendered[index] ?? "", to: request.url(in: arguments.workingDirectory).path)
            } catch {
                unwritten.append(.argumentError("cannot write the \(request.kind.rawValue) report to '\(request.path)': \(error)"))
            }
        }
        return CommandResult(
            exitCode: unwritten.isEmpty ? result.exitCode : 2, summary: result, output: rendered[kinds.count] ?? "",
            diagnostics: warnings + unwritten)
    }

    /// Every gate check has what it needs, and `--min-used` is a share.
    private static func check(_ arguments: CoverageArguments) throws(DiagnosticsError) {
        let given: [CoverageFailOn: Bool] = [
            .usedUnverified: !arguments.usageFolders.isEmpty && !arguments.verifyReports.isEmpty,
            .invalidRequests: !arguments.usageFolders.isEmpty,
            .uncoveredOperations: arguments.openAPIDocument != nil, .uncoveredResponses: arguments.openAPIDocument != nil,
        ]
        for check in CoverageFailOn.allCases where arguments.gate.failOn.contains(check) && given[check] != true {
            throw DiagnosticsError(argument: "--fail-on \(check.rawValue) needs \(check.needs)")
        }
        if let minimum = arguments.gate.minimumUsedPercent {
            guard (0...100).contains(minimum) else { throw DiagnosticsError(argument: "--min-used must be a percentage from 0 to 100, found \(minimum)") }
            guard !arguments.usageFolders.isEmpty else { throw DiagnosticsError(argument: "--min-used needs --usage") }
        }
    }

    /// A report written over a file the run reads would lose it: last night's verify report, the
    /// document, or a usage file (and a new `usage-*.jsonl` in a usage folder would be read as one
    /// by the next run). Files are compared as the file system knows them, whatever the path.
    private static func checkNoReportIsAnInput(_ requests: [ReportRequest<CoverageReportKind>], _ arguments: CoverageArguments) throws(DiagnosticsError) {
        let files = arguments.verifyReports.map { ("--verify-report", $0) } + (arguments.openAPIDocument.map { [("--openapi", $0)] } ?? [])
        let inputs = files.flatMap { option, named in
            [FileIdentity(path(named, in: arguments), following: true), FileIdentity(path(named, in: arguments), following: false)]
                .compactMap { $0 }.map { ($0, option) }
        }
        let usageFolders = arguments.usageFolders.compactMap { FileIdentity(path($0, in: arguments), following: true) }
        let tree = FileIdentity(path(arguments.directory, in: arguments), following: true)
        for request in requests {
            let destination = request.url(in: arguments.workingDirectory)
            // A `.json` anywhere in the contracts folder: it would replace a contract or a schema,
            // or be read as one by the next run (the loader reads `*.json` files only).
            var folder = (destination.path as NSString).deletingLastPathComponent
            while let tree, destination.lastPathComponent.hasSuffix(".json"), !folder.isEmpty {
                if FileIdentity(folder, following: true) == tree {
                    throw DiagnosticsError(argument:
                        "--report \(request.kind.rawValue): '\(request.path)' is a JSON file in the contracts folder '\(arguments.directory)', which this run reads; give the report another path")
                }
                // Up to the root, where the parent is the folder itself.
                let parent = (folder as NSString).deletingLastPathComponent
                if parent == folder { break }
                folder = parent
            }
            var option = FileIdentity(destination.path, following: false).flatMap { file in inputs.first { $0.0 == file }?.1 }
            let name = destination.lastPathComponent
            if option == nil, name.hasPrefix("usage-"), name.hasSuffix(".jsonl"),
                let folder = FileIdentity(destination.deletingLastPathComponent().path, following: true), usageFolders.contains(folder)
            {
                option = "--usage"
            }
            if let option {
                throw DiagnosticsError(argument: "--report \(request.kind.rawValue): '\(request.path)' is an input of this run (\(option)); give the report another path")
            }
        }
    }

    /// What the usage folders and the reports hold, read apart from the contracts.
    struct Inputs: Sendable {
        var usage: Result<UsageFolders.Read, DiagnosticsError>?
        var reports: Result<VerifyReports.Read, DiagnosticsError>?
    }

    private static func readInputs(_ arguments: CoverageArguments) -> Inputs {
        var inputs = Inputs()
        if !arguments.usageFolders.isEmpty { inputs.usage = UsageFolders.read(arguments.usageFolders.map { path($0, in: arguments) }) }
        if !arguments.verifyReports.isEmpty { inputs.reports = VerifyReports.read(arguments.verifyReports.map { path($0, in: arguments) }) }
        return inputs
    }

    private static func join(
        _ arguments: CoverageArguments, set: ContractSet, inputs: Inputs, requests: [ReportRequest<CoverageReportKind>]
    ) -> Result<(CoverageResult, [Diagnostic]), DiagnosticsError> {
        var sources = CoverageResult.Sources()
        var warnings: [Diagnostic] = []
        var problems: [Diagnostic] = []
        var usage: UsageTally?
        switch inputs.usage {
        case .success(let read)?:
            usage = read.tally
            warnings += read.warnings
            sources.usageFolders = arguments.usageFolders
            sources.usageFiles = read.tally.files
            sources.tests = read.tally.tests.count
            sources.requests = read.tally.requests
        case .failure(let error)?: problems += error.diagnostics
        case nil: break
        }
        var results: [CaseResult]?
        switch inputs.reports {
        case .success(let read)?:
            results = read.results
            warnings += read.warnings
            if let treeDigest = set.treeDigest, let reported = read.tree, reported != treeDigest {
                // Not an error: last night's report against today's contracts is the usual case.
                // Cases are matched by id, and what changed since is for `contract diff` to say.
                warnings.append(.warning(
                    "the report is of another version of the contracts (tree \(ShownText.oneLine(String(reported.prefix(12)))), this one \(treeDigest.prefix(12))): cases are matched by their ids",
                    file: arguments.verifyReports.first))
            }
            sources.verifyReports = arguments.verifyReports
            sources.baseURL = read.baseURL
        case .failure(let error)?: problems += error.diagnostics
        case nil: break
        }
        var document: DocumentInput.Read?
        if let named = arguments.openAPIDocument {
            switch DocumentInput.read(path(named, in: arguments), shownAs: named, contracts: set.contracts) {
            case .success(let read):
                document = read
                warnings += read.warnings
                sources.document = named
                // The document's other files are known once it is read.
                let files = Set(read.files.flatMap { [FileIdentity($0, following: true), FileIdentity($0, following: false)] }.compactMap { $0 })
                for request in requests where FileIdentity(request.url(in: arguments.workingDirectory).path, following: false).map(files.contains) == true {
                    problems.append(.argumentError(
                        "--report \(request.kind.rawValue): '\(request.path)' is a file the document '\(named)' refers to (--openapi); give the report another path"))
                }
            case .failure(let error): problems += error.diagnostics
            }
        }
        guard problems.isEmpty else { return .failure(DiagnosticsError(problems)) }
        let cases = CoverageJoin.cases(set.contracts, usage: usage, results: results)
        var result = CoverageResult(contractsDirectory: arguments.directory, sources: sources, cases: cases, operations: document?.operations)
        result.contractsOffDocument = document?.contractsOffDocument ?? []
        if let usage {
            result.unmatched = CoverageJoin.unmatched(usage)
            result.staleUsage = CoverageJoin.staleUsage(usage, cases: cases)
            if usage.casesBeyondLimit > 0 {
                warnings.append(Diagnostic(
                    severity: .warning,
                    message: "\(usage.casesBeyondLimit) requests to cases past the first \(usage.maxCases) distinct ones the usage names are counted in no case",
                    file: nil))
            }
            if usage.unmatchedBeyondLimit > 0 {
                warnings.append(Diagnostic(
                    severity: .warning,
                    message: "\(usage.unmatchedBeyondLimit) unmatched requests past the first \(CoverageLimits.maxUnmatchedGroups) distinct paths are counted in no group",
                    file: nil))
            }
        }
        if let results {
            let known = Set(cases.map(\.id))
            let gone = results.filter { !known.contains($0.name) }
            if !gone.isEmpty {
                warnings.append(Diagnostic(
                    severity: .warning,
                    message: "the report has \(gone.count) case\(gone.count == 1 ? "" : "s") the contracts no longer have (\(gone.prefix(3).map { ShownText.oneLine($0.name) }.joined(separator: ", "))\(gone.count > 3 ? ", …" : ""))",
                    file: arguments.verifyReports.first))
            }
        }
        return .success((result, warnings))
    }

    private static func withoutTrailingSlashes(_ folder: String) -> String {
        var trimmed = folder
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    private static func path(_ path: String, in arguments: CoverageArguments) -> String {
        path.hasPrefix("/") ? path : (arguments.workingDirectory as NSString).appendingPathComponent(path)
    }
}
