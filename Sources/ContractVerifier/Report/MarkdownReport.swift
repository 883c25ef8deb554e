/// `--report markdown=PATH`: a summary a person reads in a pull request or a job summary
/// (`$GITHUB_STEP_SUMMARY`): a table of every case, then the details of each failure.
enum MarkdownReport {
    static func render(_ report: VerifyReport) -> String {
        var lines: [String] = []
        let verdict = report.exitCode == 0 ? "✅ contract verify passed" : "❌ contract verify found drift"
        lines.append("## \(verdict)")
        lines.append("")
        lines.append("\(ReportFormatting.summary(report)), against `\(code(report.baseURL))`.")
        lines.append("")
        lines.append("| | Case | Request | Response |")
        lines.append("|---|---|---|---|")
        for result in report.results {
            let mark: String
            switch result.outcome {
            case .passed: mark = "✅"
            case .failed: mark = "❌"
            case .error: mark = "⚠️"
            }
            lines.append(
                "| \(mark) | `\(cell(result.name))` | `\(cell(ReportFormatting.requestLine(result.request)))` | \(cell(ReportFormatting.outcomeLine(result))) |")
        }
        let failing = report.results.filter { $0.outcome != .passed }
        if !failing.isEmpty {
            lines.append("")
            lines.append("### What differs")
            for result in failing {
                lines.append("")
                lines.append("#### `\(code(result.name))` (\(cell(result.file)))")
                lines.append("")
                lines.append("```text")
                lines += ReportFormatting.details(result).map { $0.replacing("```", with: "'''") }
                lines.append("```")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table cell: pipes and line breaks would end the cell or the row.
    private static func cell(_ text: String) -> String {
        text.replacing("|", with: "\\|").replacing("\n", with: " ")
    }

    private static func code(_ text: String) -> String {
        text.replacing("`", with: "'")
    }
}
