import ContractFiles
import ContractJSON
import ContractModel
import ContractRequests
import Foundation

/// The I/O edge of `--usage FOLDER`: every `usage-*.jsonl` file the stubs and the mock server
/// wrote there (``UsageRecorder``), read with the one reader (``UsageLog``) and summed.
///
/// A folder is read, never followed out of: a link in it is skipped with a warning, and only
/// regular files named as a recorder names them are read. A folder or a file met twice (a folder
/// given twice under two names, a hard link) is read once, with a warning: its requests counted
/// twice would make every figure wrong. Every bound is ``CoverageLimits``'.
enum UsageFolders {
    struct Read: Sendable {
        var tally = UsageTally()
        var warnings: [Diagnostic] = []
    }

    static func read(_ folders: [String]) -> Result<Read, DiagnosticsError> {
        var read = Read()
        var problems: [Diagnostic] = []
        var totalBytes = 0
        var readFolders: Set<FileIdentity> = []
        var readFiles: Set<FileIdentity> = []
        for folder in folders {
            if let identity = FileIdentity(folder, following: true), !readFolders.insert(identity).inserted {
                read.warnings.append(.warning("the same folder as one given before, so not read again", file: folder))
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                var status = stat()
                let notFolder = stat(folder, &status) == 0 && (status.st_mode & S_IFMT) != S_IFDIR
                problems.append(.argumentError("--usage: cannot read the folder '\(folder)': \(notFolder ? "not a folder" : Self.reason(error))"))
                continue
            }
            let files = names.filter { $0.hasPrefix("usage-") && $0.hasSuffix(".jsonl") }
            guard !files.isEmpty else {
                problems.append(.argumentError(
                    "--usage: the folder '\(folder)' has no usage files (usage-*.jsonl): run the tests with \(UsageRecorder.environmentVariable)=\(folder) (docs/coverage.md)"))
                continue
            }
            guard files.count <= CoverageLimits.maxUsageFiles else {
                problems.append(.argumentError("--usage: the folder '\(folder)' has \(files.count) usage files, more than the \(CoverageLimits.maxUsageFiles) read (one per test process)"))
                continue
            }
            for name in files {
                let path = (folder as NSString).appendingPathComponent(name)
                var status = stat()
                guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                    read.warnings.append(.warning("not a regular file (a link or a folder), so not read", file: path))
                    continue
                }
                guard readFiles.insert(FileIdentity(status)).inserted else {
                    read.warnings.append(.warning("the same file as one read before (a hard link), so not counted again", file: path))
                    continue
                }
                let bytes: [UInt8]
                switch InputFile.read(path, limit: CoverageLimits.maxUsageFileBytes) {
                case .success(let value): bytes = value
                case .failure(.tooLarge):
                    problems.append(.error("expected a usage file of at most \(InputFile.describe(bytes: CoverageLimits.maxUsageFileBytes))", file: path))
                    continue
                case .failure(let failure):
                    problems.append(.error("cannot read: \(InputFile.reason(failure))", file: path))
                    continue
                }
                totalBytes += bytes.count
                guard totalBytes <= CoverageLimits.maxUsageBytes else {
                    problems.append(.argumentError("--usage: the usage files hold more than \(InputFile.describe(bytes: CoverageLimits.maxUsageBytes)) together; give fewer folders"))
                    return .failure(DiagnosticsError(problems))
                }
                // Summed line by line: a file's records are never all held at once.
                read.tally.addFile()
                switch UsageLog.read(bytes, each: { read.tally.add($0) }) {
                case .success(let contents):
                    if let line = contents.truncatedLastLine {
                        read.warnings.append(.warning(
                            "the last line is incomplete (the test process stopped while writing it); the \(contents.records) requests before it are counted",
                            file: path, location: SourceLocation(line: line, column: 1, offset: 0)))
                    }
                case .failure(let problem):
                    // The message quotes the file (a key, a value): shown as text, never acted on.
                    problems.append(.error(
                        ShownText.oneLine(problem.message), file: path, location: SourceLocation(line: problem.line, column: problem.column, offset: 0),
                        pointer: problem.pointer.isRoot ? nil : problem.pointer))
                }
            }
        }
        return problems.isEmpty ? .success(read) : .failure(DiagnosticsError(problems))
    }

    private static func reason(_ error: Error) -> String {
        let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? 0
        return code == 0 ? "no such folder" : String(cString: strerror(Int32(code))).lowercased()
    }
}
