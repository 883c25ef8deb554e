import Foundation

/// Writes one report file when the run completes: `json`, `junit` or `markdown`. The file is
/// written whole or not at all (temporary file, then rename). Results arrive with secrets
/// already masked.
public final class FileReporter: VerifyReporter {
    public enum Kind: String, Sendable, CaseIterable {
        case json
        case junit
        case markdown
    }

    public let kind: Kind
    public let path: String

    public init(kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    public func started(total: Int, baseURL: String) {}

    public func finished(_ result: CaseResult) {}

    public func completed(_ report: VerifyReport) throws {
        let text: String
        switch kind {
        case .json: text = JSONReport.render(report)
        case .junit: text = JUnitReport.render(report)
        case .markdown: text = MarkdownReport.render(report)
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ReportWriteError(message: "cannot write the \(kind.rawValue) report to '\(path)': \(error.localizedDescription)")
        }
    }
}

public struct ReportWriteError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
