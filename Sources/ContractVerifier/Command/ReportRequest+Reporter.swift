import ContractModel

/// A `--report` of verify and merge: `json`, `junit`, `markdown` or `html`.
public typealias VerifyReportRequest = ReportRequest<FileReporter.Kind>

extension ReportRequest where Kind == FileReporter.Kind {
    func reporter() -> FileReporter {
        FileReporter(kind: kind, path: path)
    }
}
