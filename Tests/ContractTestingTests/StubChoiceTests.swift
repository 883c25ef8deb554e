@testable import ContractTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A contract id or case name the fixtures do not have fails at the call that names it, with the
/// nearest name, instead of being ignored or failing at some later request.
struct StubChoiceTests {
    static let contracts = "health.get, products.create, products.delete, products.get, products.list"

    /// The description of what `body` throws, or nil when it does not throw.
    func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aWrongContractIdFailsAtUseAndNamesTheNearest() throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        let message = failure { try stub.use("product.get", case: "missing") }
        #expect(message == """
            use("product.get", case: "missing"): no contract 'product.get' in this stub's fixtures; \
            did you mean 'products.get'? (contracts: \(Self.contracts))
            """)
    }

    @Test func aWrongCaseFailsAtUseAndNamesTheNearest() throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        let message = failure { try stub.use("products.get", case: "mising") }
        #expect(message == """
            use("products.get", case: "mising"): products.get has no case 'mising'; did you mean 'missing'? (cases: found, missing)
            """)
        #expect(stub.requests.isEmpty)
    }

    @Test func aRejectedChoiceLeavesTheEarlierOne() async throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        try stub.use("products.get", case: "missing")
        #expect(failure { try stub.use("products.get", case: "gone") } != nil)
        #expect(try await Market.send(stub.makeSession(), "/api/products/1").0 == 404)
    }

    @Test func aFaultForAWrongContractIdFailsAtInject() throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        let message = failure { try stub.inject(.status(503), for: "product.list") }
        #expect(message == """
            inject(_:for: "product.list"): no contract 'product.list' in this stub's fixtures; \
            did you mean 'products.list'? (contracts: \(Self.contracts))
            """)
    }

    @Test func aRejectedFaultIsNotApplied() async throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        #expect(failure { try stub.inject(.status(503), for: "heath") } != nil)
        #expect(try await Market.send(stub.makeSession(), "/health").0 == 200)
    }

    /// Forty contracts are too many to list: the message names the nearest and how many there are.
    @Test func manyContractsAreCountedNotListed() throws {
        let template = try #require(Market.fixtures.fixtures.first)
        let fixtures = (0..<40).map { index in
            var fixture = template
            fixture.contract = "orders.step\(index)"
            return fixture
        }
        let stub = try ContractStub(fixtures: FixtureSet(fixtures: fixtures))
        let message = failure { try stub.use("orders.stepp17", case: template.caseName) }
        #expect(message == """
            use("orders.stepp17", case: "\(template.caseName)"): no contract 'orders.stepp17' in this stub's fixtures; \
            did you mean 'orders.step17'? (one of 40 contracts)
            """)
    }

    @Test func aStubWithoutFixturesSaysSo() throws {
        let stub = try ContractStub(fixtures: FixtureSet(fixtures: []))
        #expect(failure { try stub.use("products.get", case: "found") } == #"use("products.get", case: "found"): this stub has no fixtures"#)
    }

    @Test(arguments: [
        ("kitten", ["sitting", "mitten", "kitchen"], "mitten"),
        ("products.get", ["products.list", "products.set", "product.get"], "product.get"),
        ("get_pet", ["getPet", "listPets"], "getPet"),
        ("", ["b", "a"], "a"),
    ])
    func theNearestNameIsTheFewestEdits(_ name: String, _ candidates: [String], _ nearest: String) {
        #expect(ContractStubError.nearest(to: name, in: candidates) == nearest)
    }
}
