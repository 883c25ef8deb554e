import ContractModel
import Testing

@testable import ContractDiff

/// The check of the app's fixtures (written from OLD) against NEW's cases: a NEW schema that does
/// not compile checks nothing, and is reported as such, never taken for a pass.
struct FixtureCheckTests {
    /// NEW's schema refers to nothing: the fixture of OLD's case could not be checked, and the
    /// diff says so and why (before, the failed compile made the check pass in silence).
    @Test func aNewSchemaThatDoesNotCompileIsReportedNotPassed() throws {
        let old = try DiffTrees.tree(DiffTrees.respond(#"{"status":200,"schema":{"type":"integer"},"example":5}"#), shownAs: "old")
        // The diff refuses a tree with errors before it compares; the comparer must not count on it.
        let newSet = DiffTrees.set(DiffTrees.respond(##"{"status":200,"schema":{"$ref":"#/definitions/nowhere"}}"##), shownAs: "new")
        let result = DiffRun.compare(old: old, new: DiffTree(shownAs: "new", set: newSet, kind: .folder))
        let fixture = result.changes.filter { $0.rule == "fixture-no-longer-matches" }
        #expect(fixture.count == 1, "\(DiffTrees.shown(result))")
        let message = try #require(fixture.first?.message)
        #expect(message.hasPrefix("the app's fixture things/ok.json could not be checked: the NEW schema does not compile: "), "\(message)")
        #expect(message.contains("nowhere"), "the reason names the reference: \(message)")
    }
}
