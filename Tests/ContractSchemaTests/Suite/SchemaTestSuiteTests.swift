import ContractJSON
import ContractSchema
import Foundation
import TestSupport
import Testing

/// One test per case of the official suite. Required cases must all pass; the optional ones
/// (formats, ECMA-262 regular expressions, big numbers…) are counted and the counts checked
/// against docs/COMPLIANCE.md, and any known failure is listed with its reason in
/// `SchemaTestSuiteKnownFailures`.
struct SchemaTestSuiteTests {
    static let requiredDraft202012 = SchemaTestSuite.cases("draft2020-12", dialect: .draft2020_12)
    static let requiredDraft7 = SchemaTestSuite.cases("draft7", dialect: .draft7)
    static let optionalCases = SchemaTestSuite.cases("draft2020-12/optional", dialect: .draft2020_12)
        + SchemaTestSuite.cases("draft2020-12/optional/format", dialect: .draft2020_12)
        + SchemaTestSuite.cases("draft7/optional", dialect: .draft7)
        + SchemaTestSuite.cases("draft7/optional/format", dialect: .draft7)

    @Test func suiteIsComplete() {
        #expect(Self.requiredDraft202012.count == 1299)
        #expect(Self.requiredDraft7.count == 927)
    }

    @Test(arguments: requiredDraft202012)
    func draft2020_12(_ testCase: SchemaTestSuite.Case) {
        check(testCase)
    }

    @Test(arguments: requiredDraft7)
    func draft7(_ testCase: SchemaTestSuite.Case) {
        check(testCase)
    }

    @Test(arguments: optionalCases)
    func optional(_ testCase: SchemaTestSuite.Case) {
        check(testCase)
    }

    /// The optional counts of docs/COMPLIANCE.md are the ones this run gets, file by file and in
    /// total: the figures are read from the document itself, so a change in either one fails
    /// here until the other says the same.
    @Test func optionalCountsAreTheOnesCOMPLIANCEQuotes() throws {
        var counts: [String: (passed: Int, total: Int)] = [:]
        for testCase in Self.optionalCases {
            let passed = SchemaTestSuite.disagreement(testCase) == nil
            let (p, t) = counts[testCase.file] ?? (0, 0)
            counts[testCase.file] = (p + (passed ? 1 : 0), t + 1)
        }
        let actual = counts.mapValues { "\($0.passed)/\($0.total)" }
        let compliance = try ComplianceDocument()
        let quoted = try compliance.optionalFiles()
        // Every file of the suite is in the table, and the table names no file the suite lacks.
        #expect(!actual.isEmpty, "no optional case found under '\(SchemaTestSuite.root.path)'")
        for file in Set(actual.keys).union(quoted.keys).sorted() {
            #expect(
                actual[file] == quoted[file],
                "\(file): this run passes \(actual[file] ?? "no case"), docs/COMPLIANCE.md says \(quoted[file] ?? "nothing"); update the one that is wrong")
        }
        let summary = try compliance.optionalSummary()
        for (draft, prefix) in [("draft 2020-12", "draft2020-12/optional/"), ("draft 7", "draft7/optional/")] {
            for (row, formats) in [("optional (without formats)", false), ("optional/format (asserted)", true)] {
                let files = counts.filter { $0.key.hasPrefix(prefix) && $0.key.hasPrefix(prefix + "format/") == formats }.values
                let total = "\(files.map(\.passed).reduce(0, +)) / \(files.map(\.total).reduce(0, +))"
                #expect(summary[row]?[draft] == total, "\(row), \(draft): this run passes \(total), docs/COMPLIANCE.md says \(summary[row]?[draft] ?? "nothing")")
            }
        }
    }

    /// The required counts of docs/COMPLIANCE.md are the suite's size, all passing.
    @Test func requiredCountsAreTheOnesCOMPLIANCEQuotes() throws {
        let required = try ComplianceDocument().table(after: "## Required")
        #expect(required["draft 2020-12"]?["Passed"] == Self.shown(Self.requiredDraft202012.count))
        #expect(required["draft 7"]?["Passed"] == Self.shown(Self.requiredDraft7.count))
    }

    /// The known failures table of docs/COMPLIANCE.md has a row per entry of the list below.
    @Test func knownFailuresAreTheOnesCOMPLIANCEListsExactly() throws {
        let listed = try ComplianceDocument().table(after: "## Known failures")
        #expect(listed.count == SchemaTestSuiteKnownFailures.reasons.count, "docs/COMPLIANCE.md lists \(listed.count), the tests \(SchemaTestSuiteKnownFailures.reasons.count)")
    }

    /// `1,299 / 1,299`, as the document writes a count that all pass.
    static func shown(_ count: Int) -> String {
        let digits = String(count)
        let grouped = digits.count > 3 ? digits.dropLast(3) + "," + digits.suffix(3) : Substring(digits)
        return "\(grouped) / \(grouped)"
    }

    private func check(_ testCase: SchemaTestSuite.Case) {
        let problem = SchemaTestSuite.disagreement(testCase)
        if let reason = SchemaTestSuiteKnownFailures.reasons[testCase.id] {
            withKnownIssue(Comment(rawValue: reason)) { #expect(problem == nil, "\(problem ?? "")") }
        } else {
            #expect(problem == nil, "\(problem ?? "")")
        }
    }
}

/// The one place known failures are listed, each with its reason. The list must only shrink.
enum SchemaTestSuiteKnownFailures {
    static let reasons: [String: String] = [
        "draft2020-12/optional/cross-draft.json: refs to historic drafts are processed as historic drafts / first item not a string is valid":
            "draft 2019-09 is not a supported dialect: its schemas are read as draft 2020-12",
        "draft7/optional/cross-draft.json: refs to future drafts are processed as future drafts / missing bar is invalid":
            "draft 2019-09 is not a supported dialect: its schemas are read as draft 2020-12",
    ]
}

/// docs/COMPLIANCE.md, read as the tables it holds.
struct ComplianceDocument {
    static let url = SharedData.packageRoot.appendingPathComponent("docs/COMPLIANCE.md")
    let lines: [Substring]

    init() throws {
        lines = try String(contentsOf: Self.url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The first table after the line `heading` (and after `containing`, when given), by row
    /// name then column name.
    func table(after heading: String, containing header: String? = nil) throws -> [String: [String: String]] {
        guard var index = lines.firstIndex(where: { $0 == heading }) else { throw Missing(what: "the heading '\(heading)'") }
        while index < lines.count, !lines[index].hasPrefix("|") || header.map({ !lines[index].contains($0) }) ?? false { index += 1 }
        guard index + 1 < lines.count else { throw Missing(what: "a table after '\(heading)'") }
        let columns = Self.cells(lines[index])
        var rows: [String: [String: String]] = [:]
        for line in lines[(index + 2)...].prefix(while: { $0.hasPrefix("|") }) {
            let cells = Self.cells(line)
            guard let name = cells.first else { continue }
            rows[name] = Dictionary(zip(columns.dropFirst(), cells.dropFirst()).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
        }
        guard !rows.isEmpty else { throw Missing(what: "rows in the table after '\(heading)'") }
        return rows
    }

    /// The per-file table of the optional suite, as `draft2020-12/optional/format/date.json` to `81/81`;
    /// a `-` (no such file in that draft) is left out.
    func optionalFiles() throws -> [String: String] {
        var result: [String: String] = [:]
        for (file, row) in try table(after: "## Optional", containing: "File") {
            for (column, prefix) in [("draft 2020-12", "draft2020-12/optional/"), ("draft 7", "draft7/optional/")] {
                guard let count = row[column], count != "-" else { continue }
                result[prefix + file] = count
            }
        }
        return result
    }

    /// The optional summary table: `optional (without formats)` to `draft 2020-12` to `161 / 162`.
    func optionalSummary() throws -> [String: [String: String]] {
        try table(after: "## Optional")
    }

    static func cells(_ line: Substring) -> [String] {
        line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    struct Missing: Error, CustomStringConvertible {
        var what: String
        var description: String { "docs/COMPLIANCE.md has no \(what)" }
    }
}
