import ContractTesting
import Foundation
import MarketClient
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client against fixtures generated from the contracts: the same files `contract verify`
/// checks the real server with. Run `contract fixtures --out Tests/MarketClientTests/Fixtures ../../contracts`
/// after changing a contract; the project's CI fails until then.
///
/// The stub is strict: it holds every request the client sends to its contract (the path and
/// query parameters' types and ranges, the `Authorization` header, the body's media type and
/// schema) and fails the test by itself when one breaks it, so these tests assert what the
/// client does with the answers, not what it sent.
struct MarketClientTests {
    static let baseURL = URL(string: "https://market.example.com")!
    let stub: ContractStub
    let client: MarketClient

    init() throws {
        stub = try ContractStub(fixtures: FixtureSet(bundle: .module))
        client = MarketClient(baseURL: Self.baseURL, session: stub.makeSession(), token: "test-token")
    }

    @Test func fetchesAProduct() async throws {
        let product = try await client.product(id: 1)
        #expect(product.name == "Pencil")
        #expect(product.price == Decimal(string: "1.5"))
        #expect(product.vendor?.name == "Morning Glory")
        #expect(stub.requests.map(\.fixture) == ["products.get/found"])
    }

    @Test func fetchesAPage() async throws {
        let page = try await client.products()
        #expect(page.pageNo == 1 && page.itemsPerPage == 20)
        #expect(page.items.first?.id == 1)
        #expect(stub.requests.map(\.fixture) == ["products.list/first-page"])
    }

    /// Any page and size the contract allows gets the page the fixture has.
    @Test func fetchesAnotherPage() async throws {
        _ = try await client.products(page: 3, perPage: 100)
        #expect(stub.requests.map(\.fixture) == ["products.list/first-page"])
    }

    /// The body and the token the client sends are held to `products.create` by the stub: a
    /// misspelled or missing member, or no token, would fail this test.
    @Test func createsAProduct() async throws {
        let product = try await client.createProduct(name: "Eraser", price: Decimal(string: "0.8")!, currency: "KRW")
        #expect(product.name == "Eraser")
        #expect(stub.requests.map(\.fixture) == ["products.create/created"])
        #expect(stub.invalidRequests.isEmpty)
    }

    /// The body the client sends holds only the fields given, and the stub holds it to
    /// `products.update`: an empty body, or a member the schema does not have, would fail this test.
    @Test func changesAProductsPrice() async throws {
        let product = try await client.updateProduct(id: 6, price: Decimal(string: "15.5")!)
        #expect(product.price == Decimal(string: "15.5"))
        #expect(product.currency == "KRW")
        #expect(product.updatedAt > product.createdAt)
        #expect(stub.requests.map(\.fixture) == ["products.update/updated"])
        #expect(stub.invalidRequests.isEmpty)
    }

    /// A request the contract refuses fails the test, and the client gets the stub's 400.
    @Test func aPageSizeTheContractRefusesFailsTheTest() async throws {
        try await withKnownIssue {
            let stub = try ContractStub(fixtures: FixtureSet(bundle: .module))
            let client = MarketClient(baseURL: Self.baseURL, session: stub.makeSession())
            await #expect(throws: MarketError.invalid(code: "status_400", message: "")) { try await client.products(perPage: 500) }
            #expect(stub.invalidRequests.first?.violations.map(\.name) == ["items_per_page"])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("query parameter 'items_per_page': expected a number <= 100, found 500") }
        }
    }

    /// The contract's `unauthorized` case sends no `Authorization` header, which the endpoint
    /// requires: the test sends that request on purpose, so it says so for that case.
    @Test func withoutATokenCreatingIsUnauthorized() async throws {
        try stub.allowInvalidRequests(to: "products.create", case: "unauthorized")
        try stub.use("products.create", case: "unauthorized")
        let anonymous = MarketClient(baseURL: Self.baseURL, session: stub.makeSession())
        await #expect(throws: MarketError.unauthorized) {
            try await anonymous.createProduct(name: "Eraser", price: Decimal(string: "0.8")!, currency: "KRW")
        }
        #expect(stub.invalidRequests.first?.violations.map(\.name) == ["Authorization"])
        stub.expectChosenCasesRequested()
    }

    @Test func aMissingProductIsNotFound() async throws {
        try stub.use("products.get", case: "missing")
        await #expect(throws: MarketError.notFound(message: "no product with id 999999")) { try await client.product(id: 1) }
        stub.expectChosenCasesRequested()
    }

    @Test func aBodyThatDoesNotDecodeIsADecodingError() async throws {
        try stub.inject(.undecodableBody, for: "products.get")
        do {
            _ = try await client.product(id: 1)
            Issue.record("expected a decoding error")
        } catch {
            if case .decoding = error { return }
            Issue.record("expected .decoding, got \(error)")
        }
    }

    @Test(arguments: [URLError.Code.notConnectedToInternet, .timedOut])
    func networkFailuresAreTyped(_ code: URLError.Code) async throws {
        stub.inject(.error(code))
        await #expect(throws: MarketError.network(code)) { try await client.products() }
    }

    @Test func aServerErrorIsTyped() async throws {
        try stub.inject(.status(503), for: "products.list")
        await #expect(throws: MarketError.server(status: 503)) { try await client.products() }
    }
}
