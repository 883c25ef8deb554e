import ContractHTTP
import ContractModel

/// Shared wording and number formats, so every reporter says the same thing the same way.
enum ReportFormatting {
    /// `12 ms`, `1.25 s`.
    static func duration(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
        return "\(Double(Int((milliseconds / 10).rounded())) / 100) s"
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int((Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15).rounded())
    }

    /// `GET http://127.0.0.1:8080/api/products/1`
    static func requestLine(_ request: DisplayedRequest) -> String {
        "\(request.method) \(request.url)"
    }

    /// `200 HTTP/1.1` or the transport error.
    static func outcomeLine(_ result: CaseResult) -> String {
        if let response = result.response { return "\(response.status) \(response.httpVersion)" }
        return result.transportError.map { "no response (\($0.kind.rawValue))" } ?? "no response"
    }

    /// The lines under a failed case: each finding with its pointer, keyword, schema location and
    /// excerpt; then the curl commands that reproduce it (``reproduction(_:)``).
    static func details(_ result: CaseResult, includingExchange: Bool = true, maxFindings: Int = 20) -> [String] {
        var lines: [String] = []
        if includingExchange {
            lines.append("request:  \(requestLine(result.request))")
            lines.append("response: \(outcomeLine(result))")
        }
        let groups = grouped(result.findings)
        for group in groups.prefix(maxFindings) {
            let finding = group.first
            var line = "- \(finding.kind.rawValue): \(finding.message)"
            if let keyword = finding.keyword, let location = finding.schemaLocation {
                line += " [keyword '\(keyword)' at \(location)]"
            }
            line += " #" + finding.fingerprint(contract: result.contractID, case: result.caseName)
            switch finding.baseline {
            case .known(let entry)?: line += entry.reason.map { " (known: \($0))" } ?? " (known)"
            case .expired(let entry)?: line += " (new: its baseline entry expired on \(entry.expires ?? "?"))"
            case nil: break
            }
            lines.append(line)
            if let excerpt = finding.excerpt, !excerpt.isEmpty { lines.append("    body: \(excerpt)") }
            if !group.others.isEmpty {
                let shown = group.others.prefix(3).joined(separator: ", ")
                let more = group.others.count > 3 ? " and \(group.others.count - 3) more" : ""
                lines.append("    the same at \(shown)\(more)")
            }
        }
        if groups.count > maxFindings {
            lines.append("- … and \(groups.count - maxFindings) more findings (all of them are in the JSON report)")
        }
        if result.attempts > 1 { lines.append("retries: \(result.attempts - 1) (after transport errors or answers of --retry-status)") }
        lines += reproduction(result)
        return lines
    }

    /// Setup requests a case's reproduction lists at most, the first ones: dozens of steps are
    /// shown whole, and a longer chain stays a bounded part of every report (the JSON report has
    /// every step).
    static let maxChain = 50

    /// The curl commands that send the case's requests again, in order, one a line: each setup
    /// step sent before the deciding request, named, then that request.
    ///
    ///     reproduce (setup 'create'): curl -i -X POST http://…/items -H 'Content-Type: application/json' --data-raw '{"name":"desk"}'
    ///     reproduce: curl -i http://…/items/41
    static func reproduction(_ result: CaseResult) -> [String] {
        var lines: [String] = []
        for step in result.chain.prefix(maxChain) {
            // A name from a contract is an identifier; one read back from an edited report is shown
            // as text.
            lines.append("reproduce (setup '\(ShownText.oneLine(step.name))'): \(CurlCommand.line(for: step.request))")
        }
        if result.chain.count > maxChain {
            let more = result.chain.count - maxChain
            lines.append("reproduce: … and \(more) more setup request\(more == 1 ? "" : "s") before the one below (the JSON report has every one)")
        }
        lines.append("reproduce: \(CurlCommand.line(for: result.request))")
        return lines
    }

    /// Body findings that differ only in array indices (`/items/0/price`, `/items/1/price`…) and
    /// come from the same schema keyword are one problem seen many times: shown once, with the
    /// other places listed.
    static func grouped(_ findings: [Finding]) -> [(first: Finding, others: [String])] {
        var groups: [(first: Finding, others: [String])] = []
        var index: [String: Int] = [:]
        var places: [Int: Set<String>] = [:]
        for finding in findings {
            guard let pointer = finding.pointer, let location = finding.schemaLocation else {
                groups.append((finding, []))
                continue
            }
            let shape = pointer.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.allSatisfy(\.isNumber) && !$0.isEmpty ? "*" : String($0) }.joined(separator: "/")
            let key = "\(finding.kind.rawValue)|\(finding.keyword ?? "")|\(location)|\(shape)"
            if let position = index[key], places[position]?.insert(pointer).inserted == true {
                groups[position].others.append(pointer.isEmpty ? "/" : pointer)
            } else {
                // A second problem at a place the group already shows (another missing property)
                // is not the same problem elsewhere: it gets a line of its own.
                if index[key] == nil {
                    index[key] = groups.count
                    places[groups.count] = [pointer]
                }
                groups.append((finding, []))
            }
        }
        return groups
    }

    static func summary(_ report: VerifySummary) -> String {
        var parts = ["\(report.passed) passed", "\(report.failed) failed"]
        if report.errors > 0 { parts.append("\(report.errors) without response") }
        let count = report.total
        var line = "\(count) case\(count == 1 ? "" : "s"): " + parts.joined(separator: ", ") + " in \(duration(report.duration))"
        if report.hasBaseline {
            line += "; findings against the baseline: \(report.newFindings) new, \(report.knownFindings) known, \(report.fixed.count) fixed"
        }
        return line
    }

    /// A baseline entry no finding met, as one line.
    static func fixedLine(_ entry: Baseline.Entry) -> String {
        var line = "fixed: \(entry.caseName) #\(entry.fingerprint)"
        let about = [entry.rule, entry.place].compactMap { $0 }.joined(separator: " ")
        if !about.isEmpty { line += " (\(about))" }
        return line
    }

    /// What to do when the server refused the load rather than the contract: nil when it did not.
    static func loadHint(_ summary: VerifySummary) -> String? {
        guard summary.refusedUnderLoad > 0 else { return nil }
        let cases = summary.refusedUnderLoad == 1 ? "1 case was" : "\(summary.refusedUnderLoad) cases were"
        let retry = summary.refusedWithRetryAfter == 0 ? "" : " (\(summary.refusedWithRetryAfter) with Retry-After)"
        return "hint: \(cases) answered 429 Too Many Requests or 503 Service Unavailable\(retry): the server may be refusing "
            + "the load, not the contract. Try fewer requests at once: --write-concurrency 1 (cases that change state) or a lower --concurrency; "
            + "or, where the server means \"ask again\" by it, --retries 3 --retry-status 503 (or 429)."
    }
}
