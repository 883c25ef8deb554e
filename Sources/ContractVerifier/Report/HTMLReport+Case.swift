import ContractHTTP

/// The details of one case that did not pass: the exchange, each finding with what was expected
/// beside what came back, and the curl line that sends the request again.
extension HTMLReport {
    /// Findings shown per case (after grouping the same problem at many indices), as in the
    /// console and Markdown reports.
    static let maxFindings = 20
    /// Places listed for a problem seen at many indices.
    static let maxPlaces = 10
    /// Text cut beyond these lengths: a line of a message, a request line, a curl command.
    static let maxLine = 2_000
    static let maxCurl = 8_000
    static let maxHeaders = 50

    static func caseDetails(_ result: CaseResult) -> String {
        let groups = ReportFormatting.grouped(result.findings)
        var html = "<summary>\(caseLine(result, groups: groups))</summary>\n<div class=\"details\">\n"
        html += exchange(result)
        if !groups.isEmpty {
            html += "<ol class=\"findings\">\n"
            for group in groups.prefix(maxFindings) {
                html += finding(group.first, others: group.others, result: result)
            }
            html += "</ol>\n"
            if groups.count > maxFindings {
                html += "<p class=\"note\">… and \(groups.count - maxFindings) more findings; the JSON report has all of them.</p>\n"
            }
        }
        if !result.teardown.isEmpty {
            // Not the case's drift, but what it should have removed may be left on the server.
            html += "<p class=\"note\">Teardown steps that failed (not counted as drift):</p>\n<ul>\n"
            for finding in result.teardown.prefix(maxFindings) {
                html += "<li>\(HTMLText.clipped(finding.message, to: maxLine))</li>\n"
            }
            html += "</ul>\n"
        }
        html += reproduce(result)
        html += responseHeaders(result)
        return html + "</div>\n"
    }

    /// What the closed `<details>` shows: enough to tell cases apart in a long list.
    private static func caseLine(_ result: CaseResult, groups: [(first: Finding, others: [String])]) -> String {
        var line = "<span class=\"outcome\">\(outcomeLabel(result.outcome))</span> <code class=\"name\">\(HTMLText.clipped(result.name, to: maxCell))</code>"
        if let first = groups.first?.first {
            line += " <span class=\"first\">\(HTMLText.clipped(first.message, to: 160))</span>"
            if groups.count > 1 { line += " <span class=\"more\">+\(groups.count - 1) more</span>" }
        }
        return line
    }

    private static func exchange(_ result: CaseResult) -> String {
        var html = "<dl class=\"exchange\">\n"
        html += "<dt>Contract</dt><dd><code>\(HTMLText.clipped(result.file, to: maxLine))</code></dd>\n"
        html += "<dt>Request</dt><dd><code>\(HTMLText.clipped(ReportFormatting.requestLine(result.request), to: maxLine))</code></dd>\n"
        if let response = result.response {
            let size = HTMLText.count(response.bodyBytes, "byte")
            html += "<dt>Response</dt><dd>\(response.status) \(HTMLText.escape(response.httpVersion)), body \(size), in \(ReportFormatting.duration(result.duration))</dd>\n"
        } else if let error = result.transportError {
            var text = "none: \(HTMLText.escape(error.kind.rawValue))"
            if !error.detail.isEmpty { text += " (\(HTMLText.clipped(error.detail, to: maxLine)))" }
            if error.curlCode != 0 { text += ", curl error \(error.curlCode)" }
            html += "<dt>Response</dt><dd class=\"missing\">\(text)</dd>\n"
        } else {
            html += "<dt>Response</dt><dd class=\"missing\">none</dd>\n"
        }
        if let expected = result.findings.lazy.compactMap(expectedStatus).first, let actual = result.response?.status {
            html += "<dt>Status</dt><dd>expected <b class=\"expected\">\(HTMLText.escape(expected))</b>, got <b class=\"actual\">\(actual)</b></dd>\n"
        }
        if result.attempts > 1 {
            html += "<dt>Attempts</dt><dd>\(result.attempts) (retried after transport errors or answers of --retry-status)</dd>\n"
        }
        return html + "</dl>\n"
    }

    /// The statuses a status finding says the case accepts (`201`, `2XX`, `200 or 204`), read
    /// back from its message, whose wording the status rule owns and the golden files pin; nil
    /// for any other finding, or if that wording ever changes (the message is still shown).
    static func expectedStatus(_ finding: Finding) -> String? {
        guard finding.kind == .status, finding.message.hasPrefix("expected status "),
            let found = finding.message.range(of: ", found ")
        else { return nil }
        return String(finding.message[finding.message.index(finding.message.startIndex, offsetBy: 16)..<found.lowerBound])
    }

    private static func finding(_ finding: Finding, others: [String], result: CaseResult) -> String {
        let state = finding.isKnown ? "known" : "new"
        var html = "<li class=\"finding \(state)\">\n"
        html += "<p class=\"what\"><span class=\"kind\">\(HTMLText.escape(finding.kind.rawValue))</span> "
        html += "<span class=\"state\">\(state)</span> \(HTMLText.clipped(finding.message, to: maxLine))</p>\n"
        if let baseline = baselineText(finding.baseline) {
            html += "<p class=\"baseline\">\(baseline)</p>\n"
        }
        // Where and which rule, on one quiet line: the comparison below is what a reader looks at.
        var facts: [String] = []
        if let pointer = finding.pointer {
            facts.append(pointer.isEmpty ? "at <code>/</code> (the whole body)" : "at <code>\(HTMLText.clipped(pointer, to: maxLine))</code>")
        }
        if let location = finding.schemaLocation {
            var text = "schema <code>\(HTMLText.clipped(location, to: maxLine))</code>"
            if let keyword = finding.keyword { text += ", keyword <code>\(HTMLText.escape(keyword))</code>" }
            facts.append(text)
        }
        if let rule = finding.rule {
            var text = "rule <code>\(HTMLText.escape(rule))</code>"
            if let subject = finding.subject { text += " on <code>\(HTMLText.clipped(subject, to: maxCell))</code>" }
            facts.append(text)
        }
        facts.append("fingerprint <code>#\(finding.fingerprint(contract: result.contractID, case: result.caseName))</code>")
        html += "<p class=\"facts\">" + facts.map { "<span>\($0)</span>" }.joined(separator: " ") + "</p>\n"
        html += comparison(finding)
        if !others.isEmpty {
            let shown = others.prefix(maxPlaces).map { "<code>\(HTMLText.clipped($0, to: maxCell))</code>" }.joined(separator: ", ")
            let more = others.count > maxPlaces ? " and \(others.count - maxPlaces) more" : ""
            html += "<p class=\"same\">The same at \(shown)\(more).</p>\n"
        }
        return html + "</li>\n"
    }

    /// Known with the entry's reason and expiry, or expired (then new again); nil for a finding
    /// no entry lists.
    private static func baselineText(_ status: BaselineStatus?) -> String? {
        switch status {
        case .known(let entry)?:
            var text = "Known drift, listed in the baseline"
            if let reason = entry.reason { text += ": \(HTMLText.clipped(reason, to: maxLine))" }
            if let expires = entry.expires { text += " (until \(HTMLText.escape(expires)))" }
            return text
        case .expired(let entry)?:
            var text = "New again: its baseline entry expired on \(HTMLText.escape(entry.expires ?? "?"))"
            if let reason = entry.reason { text += " (it said: \(HTMLText.clipped(reason, to: maxLine)))" }
            return text
        case nil:
            return nil
        }
    }

    /// What the contract expected beside what the server sent: the schema object that failed and
    /// the body around the pointer.
    private static func comparison(_ finding: Finding) -> String {
        let excerpt = finding.excerpt.flatMap { $0.isEmpty ? nil : $0 }
        guard finding.schemaExcerpt != nil || excerpt != nil else { return "" }
        var html = "<div class=\"comparison\">\n"
        if let schema = finding.schemaExcerpt {
            html += "<figure class=\"expected\"><figcaption>Expected: the schema</figcaption><pre>\(HTMLText.clipped(schema, to: maxLine))</pre></figure>\n"
        }
        if let excerpt {
            let caption: String
            if finding.kind == .status {
                caption = "The body that came back (not checked)"
            } else if let pointer = finding.pointer, !pointer.isEmpty {
                caption = "Found: the body around <code>\(HTMLText.clipped(pointer, to: maxCell))</code>"
            } else {
                caption = "Found: the body"
            }
            html += "<figure class=\"actual\"><figcaption>\(caption)</figcaption><pre>\(HTMLText.clipped(excerpt, to: maxLine))</pre></figure>\n"
        }
        return html + "</div>\n"
    }

    /// The curl line, selected whole by one click (`user-select: all`): no script needed to copy it.
    /// After setup steps, a line for each (at most ``ReportFormatting/maxChain``), named, first.
    private static func reproduce(_ result: CaseResult) -> String {
        let line = CurlCommand.line(for: result.request)
        guard !result.chain.isEmpty else {
            // One line: the block without its closing line break, the page as it was.
            return "<div class=\"reproduce\">" + curlBlock(line, label: "Send the request again (a click selects the whole line)").dropLast() + "</div>\n"
        }
        var html = "<div class=\"reproduce\"><p class=\"label\">Send the requests again, in this order: the setup steps, then the request that decided the case (a click selects a whole line)</p>\n"
        for (index, step) in result.chain.prefix(ReportFormatting.maxChain).enumerated() {
            html += curlBlock(CurlCommand.line(for: step.request), label: "\(index + 1). setup step '\(HTMLText.clipped(step.name, to: maxCell))'")
        }
        if result.chain.count > ReportFormatting.maxChain {
            html += "<p class=\"note\">… and \(HTMLText.count(result.chain.count - ReportFormatting.maxChain, "more setup request")); the JSON report has every one.</p>\n"
        }
        let deciding = result.findings.contains { $0.kind == .setup } ? "the setup step that failed" : "the case's request"
        html += curlBlock(line, label: "\(result.chain.count + 1). \(deciding)")
        return html + "</div>\n"
    }

    /// One curl line of a chain under its label, cut past ``maxCurl`` characters.
    private static func curlBlock(_ line: String, label: String) -> String {
        let cut = line.count > maxCurl ? " <small>(cut: the JSON report has the whole request)</small>" : ""
        return "<p class=\"label\">\(label)\(cut)</p><pre><code>\(HTMLText.clipped(line, to: maxCurl))</code></pre>\n"
    }

    private static func responseHeaders(_ result: CaseResult) -> String {
        guard let headers = result.response?.headers, !headers.isEmpty else { return "" }
        var lines = headers.prefix(maxHeaders).map { "\(HTMLText.clipped($0.name, to: maxCell)): \(HTMLText.clipped($0.value, to: maxLine))" }
        if headers.count > maxHeaders { lines.append("… and \(headers.count - maxHeaders) more") }
        return "<details class=\"headers\"><summary>Response headers (\(headers.count))</summary><pre>\(lines.joined(separator: "\n"))</pre></details>\n"
    }
}
