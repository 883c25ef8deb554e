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
    private let state: Locked<State>

    /// What changes as events arrive, with the writer those events go to.
    private struct State {
        let write: Writer
        var total = 0
        var done = 0
        var failedCount = 0
        var order = PlanOrder<CaseResult>()
    }

    /// The caller's `write`, which need not be `@Sendable` (the command's console and tests
    /// collecting text in a variable are not). `@unchecked Sendable`, and what guards it: it is
    /// kept only in `state` and called only inside `state.withLock`, so one call at a time and
    /// each after the last has returned, never after the reporter is gone; the caller must leave
    /// what it captures alone while a run is going (read it when ``Verifier`` has returned).
    private struct Writer: @unchecked Sendable {
        let write: (String) -> Void
    }

    /// `write` receives complete lines (with their newline), or progress text on a terminal.
    /// `quiet` leaves out the line of each case that passed.
    public init(style: Style, quiet: Bool = false, write: @escaping (String) -> Void) {
        self.style = style
        self.quiet = quiet
        state = Locked(State(write: Writer(write: write)))
    }

    public func receive(_ event: VerifyEvent) {
        state.withLock { state in receive(event, &state) }
    }

    private func receive(_ event: VerifyEvent, _ state: inout State) {
        let write = state.write.write
        if case let (total, baseURL)? = event.started {
            state.total = total
            write("verifying \(total) case\(total == 1 ? "" : "s") against \(baseURL)\n")
        } else if case let (result, position)? = event.finished {
            state.done += 1
            if result.outcome != .passed { state.failedCount += 1 }
            clearProgress(write)
            state.order.add(result, at: position) { printLine($0, write) }
            if style == .terminal && state.done < state.total {
                write("\r" + paint("[\(state.done)/\(state.total)] \(state.failedCount) failing", .dim))
            }
        } else if let summary = event.completed {
            clearProgress(write)
            let color: Color = summary.exitCode == 0 ? .green : .red
            for entry in summary.fixed { write(ReportFormatting.fixedLine(entry) + "\n") }
            if let hint = ReportFormatting.loadHint(summary) { write(hint + "\n") }
            write(paint(ReportFormatting.summary(summary), color) + "\n")
        }
    }

    private func printLine(_ result: CaseResult, _ write: (String) -> Void) {
        if quiet && result.outcome == .passed {
            // Said even under --quiet: what a failed cleanup left on the server is the user's to remove.
            if !result.teardown.isEmpty { write("\(paint("WARN ", .dim)) \(result.name)  teardown\n") }
            printTeardown(result, write)
            return
        }
        let label: String
        switch result.outcome.base {
        case .passed: label = paint("PASS ", .green)
        case .failed: label = paint("FAIL ", .red)
        case .error: label = paint("ERROR", .red)
        }
        let timing = style == .terminal ? "  " + paint(ReportFormatting.duration(result.duration), .dim) : ""
        write("\(label) \(result.name)  \(ReportFormatting.requestLine(result.request)) -> \(ReportFormatting.outcomeLine(result))\(timing)\n")
        if result.outcome != .passed {
            for line in ReportFormatting.details(result, includingExchange: false) { write("      \(line)\n") }
        }
        printTeardown(result, write)
    }

    private func printTeardown(_ result: CaseResult, _ write: (String) -> Void) {
        for finding in result.teardown { write("      warning: \(finding.message) (a teardown step: not counted as drift)\n") }
    }

    private func clearProgress(_ write: (String) -> Void) {
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
