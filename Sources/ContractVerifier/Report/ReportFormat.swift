/// A report format written a piece at a time as results arrive, so a report of any size costs
/// the run neither the memory of a whole document nor a long pause at the end.
///
/// The file is `header` + `opening` + each `adding` in plan order + `trailer`. The header comes
/// last because some formats open with totals (JUnit's counts, Markdown's summary).
protocol ReportFormat {
    init()
    /// The start of the file, when the run starts.
    mutating func opening(baseURL: String, total: Int) -> String
    /// The text for one more case.
    mutating func adding(_ result: CaseResult) -> String
    /// What goes before everything written so far, and what ends the file.
    mutating func closing(_ report: VerifySummary) -> (header: String, trailer: String)
}

extension ReportFormat {
    /// The whole report in one string, for a report already complete in memory.
    static func render(_ report: VerifyReport) -> String {
        var format = Self()
        var body = format.opening(baseURL: report.baseURL, total: report.results.count)
        for result in report.results { body += format.adding(result) }
        let (header, trailer) = format.closing(report.summary)
        return header + body + trailer
    }
}
