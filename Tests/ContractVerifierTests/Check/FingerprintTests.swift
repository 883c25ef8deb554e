import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// A finding's fingerprint says what it is, so the same drift has the same one in every run.
struct FingerprintTests {
    func print(_ finding: Finding, contract: String = "products.get", case name: String = "found") -> String {
        finding.fingerprint(contract: contract, case: name)
    }

    @Test func arrayIndicesMessagesAndExcerptsDoNotCount() {
        let one = Finding(kind: .body, rule: "body.schema", message: "/items/3/price: expected number, found '1.50'", pointer: "/items/3/price", keyword: "type", excerpt: "a")
        let other = Finding(kind: .body, rule: "body.schema", message: "/items/12/price: expected number, found '9'", pointer: "/items/12/price", keyword: "type", excerpt: "b")
        #expect(print(one) == print(other))
        #expect(print(one).count == 16 && print(one).allSatisfy(\.isHexDigit))
        #expect(Finding.withoutIndices("/items/3/tags/0") == "/items/*/tags/*")
        #expect(Finding.withoutIndices("/a1/12b") == "/a1/12b")
    }

    @Test func whatTheFindingIsCounts() {
        let base = Finding(kind: .body, rule: "body.schema", message: "m", pointer: "/items/3/price", keyword: "type")
        var otherPlace = base
        otherPlace.pointer = "/items/3/name"
        var otherKeyword = base
        otherKeyword.keyword = "minimum"
        let header = Finding(kind: .header, rule: "header.pattern", subject: "location", message: "m")
        let otherHeader = Finding(kind: .header, rule: "header.pattern", subject: "etag", message: "m")
        let missing = Finding(kind: .header, rule: "header.present", subject: "location", message: "m")
        let prints = [
            print(base), print(otherPlace), print(otherKeyword), print(header), print(otherHeader), print(missing),
            print(base, contract: "products.list"), print(base, case: "missing"),
        ]
        #expect(Set(prints).count == prints.count, "\(prints)")
    }

    static let contracts = [
        "items.json": """
            { "id": "items", "request": { "method": "GET", "path": "/items" },
              "cases": [ { "name": "all", "response": { "status": 200, "headers": { "X-Total": { "pattern": "^[0-9]+$" } },
                "schema": { "type": "array", "items": { "type": "object", "properties": { "price": { "type": "number" } } } } } } ] }
            """,
    ]

    func runFingerprints(body: String, total: String) async throws -> Set<String> {
        let server = try LoopbackHTTPServer { _, _ in
            .respond(status: 200, headers: [("Content-Type", "application/json"), ("X-Total", total)], body: Array(body.utf8))
        }
        let report = try await Verifier.run(Fixtures.load(Self.contracts), options: VerifyOptions(baseURL: server.baseURL))
        let result = try #require(report.results.first)
        #expect(result.outcome == .failed)
        return Set(result.findings.map { $0.fingerprint(contract: result.contractID, case: result.caseName) })
    }

    @Test func theSameDriftTomorrowHasTheSameFingerprints() async throws {
        // Another port, other values, the drift in other items: the same two problems.
        let today = try await runFingerprints(body: #"[{"price": 1}, {"price": "1.50"}]"#, total: "two")
        let tomorrow = try await runFingerprints(body: #"[{"price": "3,00"}, {"price": 2}, {"price": 4}]"#, total: "many")
        #expect(today.count == 2)
        #expect(today == tomorrow)
        let fixed = try await runFingerprints(body: #"[{"price": "1.50"}]"#, total: "7")
        #expect(fixed.count == 1 && fixed.isSubset(of: today))
    }
}
