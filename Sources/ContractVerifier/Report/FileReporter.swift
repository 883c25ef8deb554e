import Foundation

/// Writes one report file, `json`, `junit` or `markdown`, as results arrive (see ``ReportFormat``):
/// memory stays flat however many cases run. The file appears whole, when the run completes, or
/// not at all (see ``ReportFile``). Results arrive with secrets already masked.
public final class FileReporter: VerifyReporter {
    public enum Kind: String, Sendable, CaseIterable {
        case json
        case junit
        case markdown
    }

    public let kind: Kind
    public let path: String
    private var format: any ReportFormat
    private var file: ReportFile?

    public init(kind: Kind, path: String) {
        self.kind = kind
        self.path = path
        switch kind {
        case .json: format = JSONReport()
        case .junit: format = JUnitReport()
        case .markdown: format = MarkdownReport()
        }
    }

    /// Removes the partial files of every report still being written, for a process that is
    /// told to stop (SIGINT, SIGTERM) and will not reach `completed`.
    /// Nothing is written or renamed afterwards: call it only on the way out.
    public static func removePartialFiles() {
        ReportFile.registry.stop()
    }

    public func started(total: Int, baseURL: String) {
        let file = ReportFile(path: path)
        file.append(format.opening(baseURL: baseURL, total: total))
        self.file = file
    }

    public func finished(_ result: CaseResult) {
        file?.append(format.adding(result))
    }

    public func completed(_ report: VerifyReport) throws {
        if file == nil {
            // Given a finished report without having followed the run: write it all now.
            started(total: report.total, baseURL: report.baseURL)
            for result in report.results { finished(result) }
        }
        let (header, trailer) = format.closing(report)
        do {
            try file?.commit(header: header, trailer: trailer)
            file = nil
        } catch {
            file = nil
            throw ReportWriteError(message: "cannot write the \(kind.rawValue) report to '\(path)': \(error.message)")
        }
    }
}

public struct ReportWriteError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
