/// The report files `contract coverage --report KIND=PATH` writes; the console gets ``CoverageText``.
public enum CoverageReportKind: String, CaseIterable, Sendable {
    /// Everything, for tools: every case, test, request group, operation and gap.
    case json
    /// A CI step summary or pull-request comment: the totals, the gaps, and the cases that need a look.
    case markdown
    /// A page to open: every table, each row coloured by what it needs.
    case html
}

public enum CoverageReport {
    public static func render(_ result: CoverageResult, as kind: CoverageReportKind, gate: CoverageGate) -> String {
        switch kind {
        case .json: CoverageJSON.render(result, gate: gate)
        case .markdown: CoverageMarkdown.render(result, gate: gate)
        case .html: CoverageHTML.render(result, gate: gate)
        }
    }
}

/// What every format says the same way: a row's cells, the totals' lines, the lists that need a
/// look. Each writer only escapes and lays them out.
enum CoverageFormatting {
    /// The console and Markdown print the whole case table up to this many cases; a larger tree's
    /// table is in the JSON and HTML reports, and the lists of cases that need a look are printed.
    static let maxTableRows = 200
    /// Entries of each list that needs a look (gaps, unmatched requests, uncovered operations).
    static let maxListed = 50

    /// `3 tests, 12 requests`, `unused`, or nil without usage.
    static func usage(_ row: CaseCoverage) -> String? {
        guard let usage = row.usage else { return nil }
        guard usage.isUsed || usage.invalid > 0 else { return "unused" }
        var parts = ["\(usage.tests.count) test\(usage.tests.count == 1 ? "" : "s")", "\(usage.requests) request\(usage.requests == 1 ? "" : "s")"]
        if usage.invalid > 0 { parts.append("\(usage.invalid) broke it") }
        if usage.relaxed > 0 { parts.append("\(usage.relaxed) let through") }
        return parts.joined(separator: ", ")
    }

    /// `passed`, `FAILED: body /price: …`, `no response`, `not run`, or nil without a report.
    static func verification(_ row: CaseCoverage) -> String? {
        switch row.verification {
        case nil: nil
        case .passed?: "passed"
        case .failed(let findings)?: "FAILED" + (findings.first.map { ": \($0)" } ?? "") + (findings.count > 1 ? " (+\(findings.count - 1))" : "")
        case .error(let what)?: "NO RESPONSE: \(what)"
        case .notRun?: "not run"
        }
    }

    /// The lines a person reads first.
    static func totals(_ result: CoverageResult) -> [(label: String, value: String)] {
        let totals = result.totals
        let sources = result.sources
        var lines: [(String, String)] = [("cases", "\(totals.cases) in \(totals.contracts) contract\(totals.contracts == 1 ? "" : "s") (\(result.contractsDirectory))")]
        if sources.hasUsage {
            lines.append((
                "used by the tests",
                "\(totals.used) of \(totals.cases) cases (\(CoverageTotals.percent(totals.used, of: totals.cases))), \(sources.requests) requests from \(sources.tests) test\(sources.tests == 1 ? "" : "s") in \(sources.usageFiles) usage file\(sources.usageFiles == 1 ? "" : "s")"
            ))
        }
        if sources.hasReport {
            var verified = "\(totals.passed) passed, \(totals.failed) failed"
            if totals.errors > 0 { verified += ", \(totals.errors) no response" }
            verified += ", \(totals.notRun) not run"
            lines.append(("verified", verified + (sources.baseURL.map { " (against \($0))" } ?? "")))
        }
        if sources.hasUsage, sources.hasReport {
            lines.append((
                "relied on and kept",
                "\(totals.usedAndPassed) of \(totals.used) cases the tests use passed verification" + (totals.usedNotPassed > 0 ? "; \(totals.usedNotPassed) did not" : "")
            ))
        }
        if sources.hasUsage {
            lines.append((
                "requests",
                "\(totals.invalidRequests) broke their contract, \(totals.unmatchedRequests) matched no fixture, \(totals.relaxedRequests) let through on purpose"
            ))
        }
        if let document = sources.document {
            lines.append((
                "document",
                "\(totals.coveredOperations) of \(totals.operations) operations and \(totals.coveredResponses) of \(totals.responses) responses have a case (\(document))"
            ))
        }
        return lines
    }

    /// `gate: passed (--fail-on used-unverified)` or `gate: FAILED, 3 gaps (…)`; nil when no gate was asked for.
    static func gateLine(_ result: CoverageResult, gate: CoverageGate) -> String? {
        var asked = gate.failOn.map(\.rawValue).sorted().map { "--fail-on \($0)" }
        if let minimum = gate.minimumUsedPercent { asked.append("--min-used \(minimum)") }
        guard !asked.isEmpty else { return nil }
        let options = asked.joined(separator: ", ")
        guard !result.gaps.isEmpty else { return "gate: passed (\(options))" }
        var byRule: [String: Int] = [:]
        for gap in result.gaps { byRule[gap.rule, default: 0] += 1 }
        let counts = byRule.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "gate: FAILED, \(result.gaps.count) gap\(result.gaps.count == 1 ? "" : "s"): \(counts) (\(options))"
    }

    /// Cases the tests use that the server did not pass: what a team wants to know first.
    static func usedNotKept(_ result: CoverageResult) -> [CaseCoverage] {
        guard result.sources.hasReport else { return [] }
        return result.cases.filter { $0.isUsed && !$0.passedVerification }
    }

    static func invalid(_ result: CoverageResult) -> [CaseCoverage] {
        result.cases.filter { ($0.usage?.invalid ?? 0) > 0 }
    }

    static func uncoveredOperations(_ result: CoverageResult) -> [OperationCoverage] {
        (result.operations ?? []).filter { !$0.isCovered }
    }

    /// Covered operations' documented responses no case expects: `GET /pets/{id} 404`.
    static func uncoveredResponses(_ result: CoverageResult) -> [(operation: OperationCoverage, key: String)] {
        (result.operations ?? []).filter(\.isCovered).flatMap { operation in
            operation.responses.filter { !$0.isCovered }.map { (operation, $0.key) }
        }
    }

    /// `… and 12 more (every one is in the JSON report)`.
    static func more(_ count: Int, shown: Int) -> String? {
        count > shown ? "… and \(count - shown) more (every one is in the JSON and HTML reports)" : nil
    }

    static func unmatchedLine(_ group: CoverageResult.Unmatched) -> String {
        var line = "\(group.method) \(group.path): \(group.requests) request\(group.requests == 1 ? "" : "s")"
        if group.relaxed > 0 { line += " (\(group.relaxed) let through on purpose)" }
        if let nearest = group.nearest { line += ", nearest \(nearest)" + (group.reason.map { ": \($0)" } ?? "") }
        if !group.tests.isEmpty {
            line += "; from " + group.tests.prefix(CoverageLimits.maxTestsShown).joined(separator: ", ")
            if group.tests.count > CoverageLimits.maxTestsShown { line += ", and \(group.tests.count - CoverageLimits.maxTestsShown) more" }
        }
        return line
    }
}
