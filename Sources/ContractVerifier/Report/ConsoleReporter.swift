/// The human view. On a terminal: colours and a live progress line that counts cases as they
/// finish. Elsewhere (CI logs): plain, stable text. Both print one line per case in plan order,
/// failure details under the case, and a summary at the end; quiet, only the cases that did not
/// pass (a long nightly run's log is then its failures).
public final class ConsoleReporter: VerifyReporter {
    public enum Style: Sendable {
        case plain
        case terminal
    }

    private let style: Style
    private let quiet: Bool
    private let write: (String) -> Void
    private var total = 0
    private var done = 0
    private var failedCount = 0
    private var order = PlanOrder<CaseResult>()

    /// `write` receives complete lines (with their newline), or progress text on a terminal.
    /// `quiet` leaves out the line of each case that passed.
    public init(style: Style, quiet: Bool = false, write: @escaping (String) -> Void) {
        self.style = style
        self.quiet = quiet
        self.write = write
    }

    public func receive(_ event: VerifyEvent) {
        switch event {
        case .started(let total, let baseURL):
            self.total = total
            write("verifying \(total) case\(total == 1 ? "" : "s") against \(baseURL)\n")
        case .finished(let result, let position):
            done += 1
            if result.outcome != .passed { failedCount += 1 }
            clearProgress()
            order.add(result, at: position, release: printLine)
            if style == .terminal && done < total {
                write("\r" + paint("[\(done)/\(total)] \(failedCount) failing", .dim))
            }
        case .completed(let summary):
            clearProgress()
            let color: Color = summary.exitCode == 0 ? .green : .red
            for entry in summary.fixed { write(ReportFormatting.fixedLine(entry) + "\n") }
            write(paint(ReportFormatting.summary(summary), color) + "\n")
        }
    }

    private func printLine(_ result: CaseResult) {
        if quiet && result.outcome == .passed { return }
        let label: String
        switch result.outcome {
        case .passed: label = paint("PASS ", .green)
        case .failed: label = paint("FAIL ", .red)
        case .error: label = paint("ERROR", .red)
        }
        let timing = style == .terminal ? "  " + paint(ReportFormatting.duration(result.duration), .dim) : ""
        write("\(label) \(result.name)  \(ReportFormatting.requestLine(result.request)) -> \(ReportFormatting.outcomeLine(result))\(timing)\n")
        if result.outcome != .passed {
            for line in ReportFormatting.details(result, includingExchange: false) { write("      \(line)\n") }
        }
    }

    private func clearProgress() {
        if style == .terminal { write("\r\u{1B}[2K") }
    }

    private enum Color: String {
        case green = "32"
        case red = "31"
        case dim = "2"
    }

    private func paint(_ text: String, _ color: Color) -> String {
        style == .terminal ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
