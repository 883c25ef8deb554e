import ContractModel
/// `--report junit=PATH`: one test suite per contract, one test case per case, for CI systems
/// that show test results (GitHub, GitLab, Jenkins, Buildkite). A contract's cases are adjacent
/// in plan order, so only the suite being written is held in memory (a contract whose cases
/// split between those that read and those that change state, ``RunOrder``, has two suites).
/// A case whose every finding the baseline knows is `<skipped>`, so a test view agrees with the
/// exit code: red only for new drift.
struct JUnitReport: ReportFormat {
    private struct Suite {
        let contract: String
        /// The contract's file: a suite is one contract, so one file.
        let file: String
        var cases = ""
        var tests = 0, failures = 0, errors = 0, skipped = 0
        var time = Duration.zero
    }

    private var suite: Suite?
    /// For the totals: the strict schema has no skipped count on `<testsuites>`, only per suite.
    private var failures = 0, errors = 0

    func opening(baseURL: String, total: Int) -> String { "" }

    mutating func adding(_ result: CaseResult) -> String {
        var finished = ""
        var current: Suite
        if let suite, suite.contract == result.contractID {
            current = suite
        } else {
            finished = closeSuite()
            current = Suite(contract: result.contractID, file: result.file)
        }
        // Taken out while it grows, so its text is not copied on every case.
        suite = nil
        current.tests += 1
        if Self.isKnownDrift(result) {
            current.skipped += 1
        } else if result.outcome == .failed {
            current.failures += 1
            failures += 1
        } else if result.outcome == .error {
            current.errors += 1
            errors += 1
        }
        current.time += result.duration
        current.cases += Self.testCase(result)
        suite = current
        return finished
    }

    mutating func closing(_ report: VerifySummary) -> (header: String, trailer: String) {
        let header = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<testsuites name="contract verify" tests="\#(report.total)" failures="\#(failures)" errors="\#(errors)" time="\#(Self.seconds(report.duration))">"#
            + "\n"
        return (header, closeSuite() + "</testsuites>\n")
    }

    private mutating func closeSuite() -> String {
        guard let suite else { return "" }
        self.suite = nil
        let contract = Self.escape(suite.contract)
        // The file is a suite property: the strict JUnit schema (junit-10.xsd) allows no `file`
        // attribute on a test case, and a reader that checks the schema refuses the whole report.
        return #"  <testsuite name="\#(contract)" tests="\#(suite.tests)" failures="\#(suite.failures)" errors="\#(suite.errors)"\#(suite.skipped > 0 ? #" skipped="\#(suite.skipped)""# : "") time="\#(Self.seconds(suite.time))">"#
            + "\n" + #"    <properties><property name="file" value="\#(Self.escape(suite.file))"/></properties>"# + "\n"
            + suite.cases + "  </testsuite>\n"
    }

    private static func testCase(_ result: CaseResult) -> String {
        let open = #"    <testcase classname="\#(escape(result.contractID))" name="\#(escape(result.caseName))" time="\#(seconds(result.duration))""#
        // A teardown that failed is no failure of the case: said on its standard error.
        let teardown = result.teardown.isEmpty ? "" : #"      <system-err>\#(escape(result.teardown.map { "warning: \($0.message)" }.joined(separator: "\n"), inAttribute: false))</system-err>"# + "\n"
        guard result.outcome != .passed else { return teardown.isEmpty ? open + "/>\n" : open + ">\n" + teardown + "    </testcase>\n" }
        let element = isKnownDrift(result) ? "skipped" : result.outcome == .error ? "error" : "failure"
        let first = result.findings.first
        let details = ReportFormatting.details(result).joined(separator: "\n")
        return open + ">\n"
            + #"      <\#(element) message="\#(escape(first?.message ?? ""))" type="\#(first?.kind.rawValue ?? "")">\#(escape(details, inAttribute: false))</\#(element)>"#
            + "\n" + teardown + "    </testcase>\n"
    }

    /// Did not pass, and the baseline knows every finding.
    private static func isKnownDrift(_ result: CaseResult) -> Bool {
        result.outcome != .passed && !result.findings.isEmpty && result.findings.allSatisfy(\.isKnown)
    }

    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = ReportFormatting.milliseconds(duration)
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// XML 1.0 text and attribute escaping; characters XML cannot carry at all become U+FFFD.
    static func escape(_ text: String, inAttribute: Bool = true) -> String {
        MarkupText.escaped(text, for: .xml, inAttribute: inAttribute)
    }
}
