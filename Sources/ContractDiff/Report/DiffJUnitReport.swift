import ContractModel
/// `--report junit=PATH`: for CI test views. One `<testsuite>` per contract with a change, one
/// `<testcase>` per case with a change, and one named after the contract for changes to the
/// contract as a whole. Each change at or above `--fail-on` is a `<failure>` (its type the
/// rule, its text the console's lines); the others, and the ignored ones with their reasons, are
/// the test's `<system-out>`, so a test view is red exactly when the exit code is. Valid against
/// the strict JUnit schema (`junit-10.xsd`), which the tests check; it has no place for a file
/// on a test case, and a diff has no timings, so neither is written.
enum DiffJUnitReport {
    private struct Test {
        var contractID: String
        var caseName: String?
        var failures: [Change] = []
        var others: [String] = []
    }

    static func render(_ result: DiffResult, failOn: Change.Severity) -> String {
        let tests = self.tests(result, failOn: failOn)
        let failing = tests.count { !$0.failures.isEmpty }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="contract diff" tests="\#(tests.count)" failures="\#(failing)" errors="0">"# + "\n"
        var start = tests.startIndex
        while start < tests.endIndex {
            let contractID = tests[start].contractID
            let end = tests[start...].firstIndex { $0.contractID != contractID } ?? tests.endIndex
            xml += suite(tests[start..<end], result: result)
            start = end
        }
        return xml + "</testsuites>\n"
    }

    /// The tests in the result's order: by contract, the contract's own changes first, then by
    /// case. Failures in the result's order; other changes after them, then the ignored ones.
    private static func tests(_ result: DiffResult, failOn: Change.Severity) -> [Test] {
        var tests: [Test] = []
        var index: [TestKey: Int] = [:]
        func position(of change: Change) -> Int {
            let key = TestKey(contractID: change.contractID, caseName: change.caseName)
            if let position = index[key] { return position }
            index[key] = tests.count
            tests.append(Test(contractID: change.contractID, caseName: change.caseName))
            return tests.count - 1
        }
        for change in result.changes {
            let at = position(of: change)
            if change.severity <= failOn {
                tests[at].failures.append(change)
            } else {
                tests[at].others += DiffTextReport.lines(for: change, in: result)
            }
        }
        for entry in DiffReport.ignored(result) {
            let at = position(of: entry.change)
            var lines = DiffTextReport.lines(for: entry.change, in: result)
            lines[0] += " (ignored: \(DiffReport.oneLine(entry.reason)))"
            tests[at].others += lines
        }
        // A contract's own changes before its cases; the result's order is already by contract.
        func key(_ test: Test) -> (String, Int, String) { (test.contractID, test.caseName == nil ? 0 : 1, test.caseName ?? "") }
        return tests.sorted { key($0) < key($1) }
    }

    private struct TestKey: Hashable {
        var contractID: String
        var caseName: String?
    }

    private static func suite(_ tests: ArraySlice<Test>, result: DiffResult) -> String {
        guard let first = tests.first else { return "" }
        let contract = escape(first.contractID)
        let failing = tests.count { !$0.failures.isEmpty }
        var xml = #"  <testsuite name="\#(contract)" tests="\#(tests.count)" failures="\#(failing)" errors="0">"# + "\n"
        for test in tests {
            // Every test has a change, so none is empty.
            xml += #"    <testcase classname="\#(contract)" name="\#(escape(test.caseName ?? test.contractID))">"# + "\n"
            for change in test.failures {
                let text = DiffTextReport.lines(for: change, in: result).joined(separator: "\n")
                xml += #"      <failure message="\#(escape(DiffReport.oneLine(change.message)))" type="\#(escape(change.rule))">"#
                    + escape(text, inAttribute: false) + "</failure>\n"
            }
            if !test.others.isEmpty {
                xml += "      <system-out>" + escape(test.others.joined(separator: "\n"), inAttribute: false) + "</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n"
    }

    /// XML 1.0 text and attribute escaping. What the reports print is already one line without
    /// control characters (``DiffReport/oneLine(_:)``); names are escaped here alone, so any
    /// character XML cannot carry becomes U+FFFD rather than an unreadable file.
    static func escape(_ text: String, inAttribute: Bool = true) -> String {
        MarkupText.escaped(text, for: .xml, inAttribute: inAttribute)
    }
}
