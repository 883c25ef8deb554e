@testable import ContractTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A contract id or case name the fixtures do not have fails at the call that names it, with the
/// nearest name, instead of being ignored or failing at some later request.
struct StubChoiceTests {
    static let contracts = "health.get, products.create, products.delete, products.get, products.list, products.update"

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
            use("products.get", case: "mising"): products.get has no case 'mising'; did you mean 'missing'? (cases: found, missing, read-after-delete, read-after-update, read-back)
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

    /// Each refusal has a code and the names it concerns, as well as its text.
    @Test func refusalsHaveCodesAndNames() throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        let contract = #expect(throws: ContractStubError.self) { try stub.use("product.get", case: "missing") }
        #expect(contract?.code == .unknownContract)
        #expect(contract?.contract == "product.get" && contract?.caseName == "missing")
        let caseName = #expect(throws: ContractStubError.self) { try stub.use("products.get", case: "mising") }
        #expect(caseName?.code == .unknownCase)
        #expect(caseName?.contract == "products.get" && caseName?.caseName == "mising")
        #expect(caseName?.localizedDescription == caseName?.description)
        let fault = #expect(throws: ContractStubError.self) { try stub.inject(.status(503), for: "heath") }
        #expect(fault?.code == .unknownContract && fault?.contract == "heath" && fault?.caseName == nil)
        let empty = try ContractStub(fixtures: FixtureSet(fixtures: []))
        let none = #expect(throws: ContractStubError.self) { try empty.use("products.get", case: "found") }
        #expect(none?.code == .noFixtures)
        #expect("\(ContractStubError.Code.noMatchingFixture)" == "noMatchingFixture")
    }

    /// Fixtures that cannot be loaded say which file, with a code for the reason.
    @Test func loadErrorsHaveCodesAndFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stub-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = #expect(throws: FixtureLoadError.self) { try FixtureSet(directory: folder) }
        #expect(empty?.code == .noFixtures && empty?.file == folder.path)

        let broken = folder.appendingPathComponent("broken.json")
        try Data("{ not json".utf8).write(to: broken)
        let unreadable = #expect(throws: FixtureLoadError.self) { try FixtureSet(directory: folder) }
        #expect(unreadable?.code == .unreadableFile && unreadable?.file == broken.path)
        #expect(unreadable?.description == "\(broken.path):1:3: not JSON: expected a string key after '{', found 'n'")

        try Data(#"{ "contract": "a" }"#.utf8).write(to: broken)
        let invalid = #expect(throws: FixtureLoadError.self) { try FixtureSet(directory: folder) }
        #expect(invalid?.code == .invalidFixture && invalid?.file == broken.path)
        #expect(invalid?.description == "\(broken.path): not a fixture written by contract fixtures")

        // A bundle without the folder: said as a folder with no fixtures, or with no resources.
        let bundle = #expect(throws: FixtureLoadError.self) { try FixtureSet(bundle: .main, subdirectory: "NoSuchFolder") }
        #expect(bundle?.code == .noFixtures || bundle?.code == .noResourcesFolder)
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
        #expect(CaseNames.nearest(to: name, in: candidates) == nearest)
    }
}
