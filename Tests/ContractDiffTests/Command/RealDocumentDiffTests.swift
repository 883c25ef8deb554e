import Foundation
import TestSupport
import Testing

@testable import ContractDiff

/// Two published versions of a real API description (Figma's, seven months apart), diffed
/// through the importer as a reviewer would: what the report says is pinned, placed in the
/// documents' own lines.
struct RealDocumentDiffTests {
    static let folder = SharedData.packageRoot.appendingPathComponent("Tests/ContractDiffTests/Documents")

    @Test func figmasSevenMonthsGiveAReportAReviewerCanActOn() throws {
        let old = try DiffSource.load("figma/old.yaml", workingDirectory: Self.folder.path).get()
        let new = try DiffSource.load("figma/new.yaml", workingDirectory: Self.folder.path).get()
        let result = DiffRun.compare(old: old, new: new)
        let text = DiffReport.render(result, as: .text, failOn: .breaking)
        // The two endpoints taken out break their clients, placed where the old document had them.
        #expect(text.contains("figma/old.yaml:2423:7: breaking: getLibraryAnalyticsActions: GET /v1/analytics/libraries/{}/actions is gone [contract-removed]"), "\(text)")
        #expect(text.contains("figma/old.yaml:2495:7: breaking: getLibraryAnalyticsUsages: GET /v1/analytics/libraries/{}/usages is gone [contract-removed]"))
        // Creating a webhook needs a context now: what clients send today is refused.
        // Placed at the keyword in the operation's inline schema, in the new document's own lines.
        #expect(text.contains("figma/new.yaml:1328:17: breaking: postWebhook/ok: request body /context: new required property 'context' [request-required-property-added]"), "\(text)")
        #expect(text.contains("breaking: postWebhook/ok: request body: what the case sent fails the new schema at /: missing required property 'context' [request-body-rejected]"))
        // The document tree of a file has two more kinds of node: a client decoding nodes into a
        // closed set of types meets ones it does not know.
        #expect(text.contains("figma/new.yaml:3545:9: breaking: getFileNodes/ok: response body /nodes/*/document: oneOf has 28 branches now, not 26 [response-one-of-branch-added]"))
        // GET /v1/payments takes its ids as strings now (typed parameters): a client sending the
        // numbers it sent is refused. Placed at the type in the new document.
        for (line, name) in [(1819, "user_id"), (1827, "community_file_id"), (1836, "plugin_id"), (1845, "widget_id")] {
            #expect(text.contains(#"figma/new.yaml:\#(line):19: breaking: getPayments: query parameter '\#(name)': type changed from "number" to "string" [parameter-type-changed]"#), "\(text)")
        }
        // New endpoints are safe; the apps' webhook fixtures lack the new member: a warning.
        #expect(result.changes.filter { $0.rule == "contract-added" }.map(\.contractID).sorted() == ["getFileMeta", "getWebhooks"])
        #expect(Set(result.changes.filter { $0.rule == "fixture-no-longer-matches" }.map(\.contractID))
            == ["deleteWebhook", "getTeamWebhooks", "getWebhook", "postWebhook", "putWebhook"])
        #expect(text.hasSuffix("10 breaking, 11 warnings, 32 safe (0 ignored) between figma/old.yaml and figma/new.yaml\n"), "\(text.split(separator: "\n").last ?? "")")
        #expect(result.exitCode(failOn: .breaking) == 1)
    }
}
