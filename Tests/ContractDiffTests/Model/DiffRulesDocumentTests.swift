import Foundation
import TestSupport
import Testing

@testable import ContractDiff

/// docs/diff-rules.md lists exactly the rules the code has, with their severities: its tables
/// are rendered from the catalogue, and `RECORD_GOLDEN=1 swift test --filter DiffRulesDocument`
/// writes them into the page.
struct DiffRulesDocumentTests {
    static let page = SharedData.packageRoot.appendingPathComponent("docs/diff-rules.md")
    static let begin = "<!-- rules: generated from DiffRuleCatalog by DiffRulesDocumentTests; do not edit by hand -->\n"
    static let end = "<!-- rules: end -->\n"

    static var tables: String {
        var text = "### Endpoints, cases, statuses, headers, bodies, requests, fixtures\n\n| Rule | Severity | When |\n|---|---|---|\n"
        for entry in DiffRuleCatalog.contractRules { text += "| `\(entry.id)` | \(entry.severity.rawValue) | \(entry.summary) |\n" }
        text += "\n### Schemas\n\nEach concept is one rule per side: `request-<concept>` for a request `schema`, `response-<concept>` for a response `schema`, "
        text += "`parameter-<concept>` for the `schema` of a parameter the endpoint describes (read as a request's).\n\n"
        text += "| Concept | Request | Response | Parameter | When |\n|---|---|---|---|---|\n"
        for concept in SchemaConcept.all {
            text += "| `\(concept.id)` | \(concept.severity(on: .request).rawValue) | \(concept.severity(on: .response).rawValue) | \(concept.severity(on: .parameter).rawValue) | \(concept.summary) |\n"
        }
        return text
    }

    @Test func thePageListsEveryRuleWithItsSeverity() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "docs/diff-rules.md has no generated section")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let written = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil, written != Self.tables {
            try text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: Self.tables).write(to: Self.page, atomically: true, encoding: .utf8)
            return
        }
        #expect(written == Self.tables, "docs/diff-rules.md is out of step with the rules; run RECORD_GOLDEN=1 swift test --filter DiffRulesDocument")
        #expect(Set(DiffRuleCatalog.all.map(\.id)).count == DiffRuleCatalog.all.count, "rule ids are unique")
    }
}
