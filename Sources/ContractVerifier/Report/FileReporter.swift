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
    /// The format, the file being written and the results waiting for an earlier one, changed
    /// only under the lock: the engine threads deliver events one at a time, but not on one thread.
    private let state: Locked<State>

    private struct State {
        var format: any ReportFormat
        var file: OutputFile?
        var order = PlanOrder<CaseResult>()
    }

    public init(kind: Kind, path: String) {
        self.kind = kind
        self.path = path
        let format: any ReportFormat =
            switch kind {
            case .json: JSONReport()
            case .junit: JUnitReport()
            case .markdown: MarkdownReport()
            case .html: HTMLReport()
            }
        state = Locked(State(format: format))
    }

    public func receive(_ event: VerifyEvent) throws {
        try state.withLock { state throws(ReportWriteError) in try receive(event, &state) }
    }

    private func receive(_ event: VerifyEvent, _ state: inout State) throws(ReportWriteError) {
        if case let (total, baseURL)? = event.started {
            let file = OutputFile(path: path)
            file.append(state.format.opening(baseURL: baseURL, total: total))
            state.file = file
        } else if case let (result, position)? = event.finished {
            // The order is taken out while it releases results, which the format (also in `state`) writes.
            var order = PlanOrder<CaseResult>()
            swap(&order, &state.order)
            let file = state.file
            order.add(result, at: position) { file?.append(state.format.adding($0)) }
            swap(&order, &state.order)
        } else if let summary = event.completed {
            try commit(summary, &state)
        }
    }

    /// Writes a report of results already in memory, as a run with these results would have.
    public func write(_ report: VerifyReport) throws {
        try receive(.started(total: report.total, baseURL: report.baseURL))
        for (position, result) in report.results.enumerated() { try receive(.finished(result, position: position)) }
        try receive(.completed(report.summary))
    }

    private func commit(_ summary: VerifySummary, _ state: inout State) throws(ReportWriteError) {
        let (header, trailer) = state.format.closing(summary)
        do {
            try state.file?.commit(header: header, trailer: trailer)
            state.file = nil
        } catch {
            state.file = nil
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
