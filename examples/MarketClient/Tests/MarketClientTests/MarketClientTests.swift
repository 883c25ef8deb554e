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
struct MarketClientTests {
    let stub: ContractStub
    let client: MarketClient

    init() throws {
        stub = try ContractStub(fixtures: FixtureSet(bundle: .module))
        client = MarketClient(baseURL: URL(string: "https://market.example.com")!, session: stub.makeSession(), token: "test-token")
    }

    @Test func fetchesAProductAndAsksForTheRightURL() async throws {
        let product = try await client.product(id: 1)
        #expect(product.name == "Pencil")
        #expect(product.price == Decimal(string: "1.5"))
        #expect(product.vendor?.name == "Morning Glory")
        let request = try #require(stub.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://market.example.com/api/products/1")
        #expect(request.headers["Accept"] == "application/json")
    }

    @Test func fetchesAPage() async throws {
        let page = try await client.products()
        #expect(page.pageNo == 1 && page.itemsPerPage == 20)
        #expect(page.items.first?.id == 1)
        #expect(stub.requests.first?.url.query == "page_no=1&items_per_page=20")
    }

    @Test func createsAProduct() async throws {
        let product = try await client.createProduct(name: "Eraser", price: Decimal(string: "0.8")!, currency: "KRW")
        #expect(product.name == "Eraser")
        let request = try #require(stub.requests.first)
        #expect(request.headers["Authorization"] == "Bearer test-token")
        let sent = try JSONSerialization.jsonObject(with: try #require(request.body)) as? [String: Any]
        #expect(sent?["name"] as? String == "Eraser")
    }

    @Test func aMissingProductIsNotFound() async throws {
        try stub.use("products.get", case: "missing")
        await #expect(throws: MarketError.notFound(message: "no product with id 999999")) { try await client.product(id: 1) }
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
