import ContractMockServer
import Foundation
import MarketClient
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client over real HTTP, against the mock server a UI test starts in its own process and
/// hands to the app it launches (`app.launchEnvironment["MARKET_BASE_URL"] = server.baseURL`):
/// the same fixtures as the stubs, the same calls (`use`, `inject`, `requests`), the same checks.
struct MarketClientOverHTTPTests {
    let server: MockServer
    let client: MarketClient

    init() throws {
        server = try MockServer(bundle: .module)
        try server.start()
        let base = try #require(server.baseURL.flatMap(URL.init(string:)))
        // Timeouts that only guard against a hang: URLSession's 60 s is a clock a loaded machine can outrun.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 900
        client = MarketClient(baseURL: base, session: URLSession(configuration: configuration), token: "test-token")
    }

    @Test func fetchesAProduct() async throws {
        let product = try await client.product(id: 1)
        #expect(product.name == "Pencil")
        #expect(server.requests.map(\.fixture) == ["products.get/found"])
    }

    @Test func aMissingProductIsNotFound() async throws {
        try server.use("products.get", case: "missing")
        await #expect(throws: MarketError.notFound(message: "no product with id 999999")) { try await client.product(id: 1) }
        #expect(server.chosenCasesNotRequested.isEmpty)
    }

    /// The body and token the client sends are held to `products.create` by the server: a
    /// misspelled member would get a 400 problem, and `invalidRequests` would list it.
    @Test func createsAProduct() async throws {
        let product = try await client.createProduct(name: "Eraser", price: Decimal(string: "0.8") ?? 0, currency: "KRW")
        #expect(product.name == "Eraser")
        #expect(server.invalidRequests.isEmpty)
        #expect(server.requests.last?.fixture == "products.create/created")
    }

    @Test func aServerErrorThenARetry() async throws {
        try server.inject(.status(503), for: "products.get", times: 1)
        await #expect(throws: MarketError.server(status: 503)) { try await client.product(id: 1) }
        #expect(try await client.product(id: 1).name == "Pencil", "the fault was for one answer")
    }

    @Test func aDroppedConnectionIsANetworkError() async throws {
        try server.inject(.dropConnection)
        await #expect {
            try await client.product(id: 1)
        } throws: { error in
            if case .network = error as? MarketError { true } else { false }
        }
    }

    @Test func anUndecodableBodyIsADecodingError() async throws {
        try server.inject(.undecodableBody)
        await #expect {
            try await client.product(id: 1)
        } throws: { error in
            if case .decoding = error as? MarketError { true } else { false }
        }
    }
}
