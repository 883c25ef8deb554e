import ContractHTTP

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
        /// Each case's text as UTF-8, made when its result arrives: a case that came ahead of an
        /// earlier one waits as its text, not as its whole result.
        var order = PlanOrder<[UInt8]>()
        /// The buffer each case's text is built in. A case next in plan order is written from it
        /// and leaves it to the next case, so most cases allocate nothing; one that waits keeps
        /// it, and the next case makes another.
        var text: [UInt8] = []
    }

    /// The caller's `write`, which need not be `@Sendable` (the command's console and tests
    /// collecting text in a variable are not). `@unchecked Sendable`, and what guards it: it is
    /// kept only in `state` and called only inside `state.withLock`, so one call at a time and
    /// each after the last has returned, never after the reporter is gone; the caller must leave
    /// what it captures alone while a run is going (read it when ``Verifier`` has returned).
    private struct Writer: @unchecked Sendable {
        let bytes: ([UInt8]) -> Void

        func callAsFunction(_ text: String) { bytes(Array(text.utf8)) }
    }

    /// `write` receives complete lines (with their newline), or progress text on a terminal.
    /// `quiet` leaves out the line of each case that passed.
    public convenience init(style: Style, quiet: Bool = false, write: @escaping (String) -> Void) {
        self.init(style: style, quiet: quiet, writeUTF8: { write(String(decoding: $0, as: UTF8.self)) })
    }

    /// As ``init(style:quiet:write:)``, the text as UTF-8 bytes: a console that writes bytes
    /// takes each case's line as it was built, with no string made for it (a run of 50,000
    /// passing cases is 50,000 lines, and strings made and appended were most of this reporter's
    /// cost per case).
    public init(style: Style, quiet: Bool = false, writeUTF8: @escaping ([UInt8]) -> Void) {
        self.style = style
        self.quiet = quiet
        state = Locked(State(write: Writer(bytes: writeUTF8)))
    }

    public func receive(_ event: VerifyEvent) {
        state.withLock { state in receive(event, &state) }
    }

    private func receive(_ event: VerifyEvent, _ state: inout State) {
        let write = state.write
        // On the event itself, not its public accessors: `finished` hands out a copy of the
        // result, a retain and a release per field, for every case.
        switch event.base {
        case .started(let total, let baseURL):
            state.total = total
            write("verifying \(total) case\(total == 1 ? "" : "s") against \(baseURL)\n")
        case .finished(let result, let position):
            state.done += 1
            if result.outcome != .passed { state.failedCount += 1 }
            clearProgress(write)
            state.text.removeAll(keepingCapacity: true)
            appendText(of: result, to: &state.text)
            state.order.add(state.text, at: position) { if !$0.isEmpty { write.bytes($0) } }
            if style == .terminal && state.done < state.total {
                write("\r" + paint("[\(state.done)/\(state.total)] \(state.failedCount) failing", .dim))
            }
        case .completed(let summary):
            clearProgress(write)
            let color: Color = summary.exitCode == 0 ? .green : .red
            for entry in summary.fixed { write(ReportFormatting.fixedLine(entry) + "\n") }
            if let hint = ReportFormatting.loadHint(summary) { write(hint + "\n") }
            write(paint(ReportFormatting.summary(summary), color) + "\n")
        }
    }

    /// Everything printed for one case, as UTF-8: its line (none for a passing case under
    /// `--quiet`), the details of a case that did not pass, and its teardown warnings. Bytes
    /// appended in place: a run of 50,000 passing cases prints 50,000 of these lines, and pieces
    /// made and joined as strings cost more than the rest of the reporter.
    private func appendText(of result: CaseResult, to text: inout [UInt8]) {
        if quiet && result.outcome == .passed {
            // Said even under --quiet: what a failed cleanup left on the server is the user's to remove.
            if !result.teardown.isEmpty { text += "\(paint("WARN ", .dim)) \(result.name)  teardown\n".utf8 }
            appendTeardown(result, to: &text)
            return
        }
        let label: String
        switch result.outcome.base {
        case .passed: label = paint("PASS ", .green)
        case .failed: label = paint("FAIL ", .red)
        case .error: label = paint("ERROR", .red)
        }
        // `LABEL id/case  METHOD url -> 200 HTTP/1.1`, as ReportFormatting's requestLine and
        // outcomeLine write it.
        text.appendUTF8(label)
        text.append(UInt8(ascii: " "))
        text.appendUTF8(result.contractID)
        text.append(UInt8(ascii: "/"))
        text.appendUTF8(result.caseName)
        text.append(UInt8(ascii: " "))
        text.append(UInt8(ascii: " "))
        text.appendUTF8(result.request.method)
        text.append(UInt8(ascii: " "))
        text.appendUTF8(result.request.url)
        text.appendUTF8(" -> ")
        if let response = result.response {
            text.appendUTF8(String(response.status))
            text.append(UInt8(ascii: " "))
            text.appendUTF8(response.httpVersion)
        } else {
            text.appendUTF8(ReportFormatting.outcomeLine(result))
        }
        if style == .terminal { text += "  \(paint(ReportFormatting.duration(result.duration), .dim))".utf8 }
        text.append(UInt8(ascii: "\n"))
        if result.outcome != .passed {
            for line in ReportFormatting.details(result, includingExchange: false) { text += "      \(line)\n".utf8 }
        }
        appendTeardown(result, to: &text)
    }

    private func appendTeardown(_ result: CaseResult, to text: inout [UInt8]) {
        for finding in result.teardown { text += "      warning: \(finding.message) (a teardown step: not counted as drift)\n".utf8 }
    }

    private func clearProgress(_ write: Writer) {
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
