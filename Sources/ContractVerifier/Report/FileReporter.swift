import ContractFiles
import Foundation

/// Writes one report file, `json`, `junit`, `markdown` or `html`, as results arrive, in plan order (see
/// ``ReportFormat``): memory stays flat however many cases run. The file appears whole, when the run completes, or
/// not at all (see ``OutputFile``). Results arrive with secrets already masked.
public final class FileReporter: VerifyReporter {
    public enum Kind: String, Sendable, CaseIterable {
        case json
        case junit
        case markdown
        case html
    }

    public let kind: Kind
    public let path: String
    private var format: any ReportFormat
    private var file: OutputFile?
    private var order = PlanOrder<CaseResult>()

    public init(kind: Kind, path: String) {
        self.kind = kind
        self.path = path
        switch kind {
        case .json: format = JSONReport()
        case .junit: format = JUnitReport()
        case .markdown: format = MarkdownReport()
        case .html: format = HTMLReport()
        }
    }

    public func receive(_ event: VerifyEvent) throws {
        switch event {
        case .started(let total, let baseURL):
            let file = OutputFile(path: path)
            file.append(format.opening(baseURL: baseURL, total: total))
            self.file = file
        case .finished(let result, let position):
            order.add(result, at: position) { file?.append(format.adding($0)) }
        case .completed(let summary):
            try commit(summary)
        }
    }

    /// Writes a report of results already in memory, as a run with these results would have.
    public func write(_ report: VerifyReport) throws {
        try receive(.started(total: report.total, baseURL: report.baseURL))
        for (position, result) in report.results.enumerated() { try receive(.finished(result, position: position)) }
        try receive(.completed(report.summary))
    }

    private func commit(_ summary: VerifySummary) throws {
        let (header, trailer) = format.closing(summary)
        do {
            try file?.commit(header: header, trailer: trailer)
            file = nil
        } catch {
            file = nil
            throw ReportWriteError(message: "cannot write the \(kind.rawValue) report to '\(path)': \(error.description)", underlying: error)
        }
    }
}

public struct ReportWriteError: Error, CustomStringConvertible {
    public var message: String
    /// What the file system said (a `FolderError`, with its errno).
    public var underlying: (any Error)?
    public var description: String { message }
}
