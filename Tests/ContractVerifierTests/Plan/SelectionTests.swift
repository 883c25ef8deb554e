import ContractModel
import Testing

@testable import ContractVerifier

/// Which cases a run includes: globs, tags, shards, and secrets that must be set.
struct SelectionTests {
    let set = Fixtures.tree

    func names(_ selection: CaseSelection, environment: [String: String] = ["TOKEN": "t"]) throws -> [String] {
        var options = VerifyOptions(baseURL: "http://127.0.0.1:1")
        options.selection = selection
        options.environment = environment
        return try VerifyPlan(set, options: options).cases.map(\.name)
    }

    @Test func casesThatOnlyReadRunFirstThenTheOthersEachInIdOrder() throws {
        #expect(try names(CaseSelection()) == ["products.get/found", "products.get/anonymous", "products.create/copy"])
    }

    @Test func globsMatchIdsAndCaseNames() throws {
        #expect(try names(CaseSelection(ids: ["products.g*"])) == ["products.get/found", "products.get/anonymous"])
        #expect(try names(CaseSelection(ids: ["*/anonymous"])) == ["products.get/anonymous"])
        #expect(Glob.matches("a*b?d", "axxbcd") && !Glob.matches("a*b", "axxbc"))
    }

    @Test func tagsOfCasesAndContracts() throws {
        #expect(try names(CaseSelection(tags: ["auth"])) == ["products.get/anonymous"])
        #expect(try names(CaseSelection(tags: ["products"])).count == 2)
    }

    @Test func shardsPartitionTheCases() throws {
        let all = try names(CaseSelection())
        for count in 1...4 {
            let parts = try (1...count).map { try names(CaseSelection(shard: Shard(parsing: "\($0)/\(count)"))) }
            #expect(parts.flatMap { $0 }.sorted() == all.sorted())
            #expect(Set(parts.flatMap { $0 }).count == all.count)
        }
        #expect(Shard(parsing: "0/2") == nil && Shard(parsing: "3/2") == nil && Shard(parsing: "x") == nil)
    }

    @Test func aMissingSecretStopsThePlanAndNamesItsUsers() {
        let error = #expect(throws: DiagnosticsError.self) { try names(CaseSelection(), environment: [:]) }
        #expect(error?.diagnostics.map(\.message) == ["environment variable TOKEN is not set; it is used by products.create/copy, products.get/found"])
        // Placed where the first user, products.create/copy, writes it.
        #expect(error?.diagnostics.first?.pointer?.description == "/cases/0/request/body/token")
    }

    @Test func secretsAreMaskedLongestFirst() {
        let secrets = Secrets(["abc", "abcdef", ""])
        #expect(secrets.redact("x abcdef y abc") == "x *** y ***")
    }
}
