import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of the example "open market" API. The session is injected, as app code does to make
/// it testable; the tests give it one served by ContractTesting.
public struct MarketClient: Sendable {
    public let baseURL: URL
    public let session: URLSession
    public let token: String?

    public init(baseURL: URL, session: URLSession = .shared, token: String? = nil) {
        self.baseURL = baseURL
        self.session = session
        self.token = token
    }

    public func products(page: Int = 1, perPage: Int = 20) async throws(MarketError) -> ProductPage {
        try await send("GET", "/api/products", query: [URLQueryItem(name: "page_no", value: String(page)), URLQueryItem(name: "items_per_page", value: String(perPage))])
    }

    public func product(id: Int) async throws(MarketError) -> Product {
        try await send("GET", "/api/products/\(id)")
    }

    public func createProduct(name: String, price: Decimal, currency: String) async throws(MarketError) -> Product {
        let body = try? JSONSerialization.data(withJSONObject: ["name": name, "price": NSDecimalNumber(decimal: price), "currency": currency], options: [.sortedKeys])
        return try await send("POST", "/api/products", body: body)
    }

    /// Changes the fields given (at least one); the others keep their values.
    public func updateProduct(id: Int, name: String? = nil, price: Decimal? = nil, currency: String? = nil) async throws(MarketError) -> Product {
        var changes: [String: Any] = [:]
        if let name { changes["name"] = name }
        if let price { changes["price"] = NSDecimalNumber(decimal: price) }
        if let currency { changes["currency"] = currency }
        let body = try? JSONSerialization.data(withJSONObject: changes, options: [.sortedKeys])
        return try await send("PATCH", "/api/products/\(id)", body: body)
    }

    private func send<Value: Decodable>(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil) async throws(MarketError) -> Value {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        guard let url = components?.url else { throw .invalid(code: "bad_url", message: path) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw .network(error.code)
        } catch {
            throw .network(.unknown)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard (200..<300).contains(status) else {
            let detail = try? decoder.decode(ErrorBody.self, from: data).error
            switch status {
            case 401: throw .unauthorized
            case 404: throw .notFound(message: detail?.message ?? "not found")
            case 400..<500: throw .invalid(code: detail?.code ?? "status_\(status)", message: detail?.message ?? "")
            default: throw .server(status: status)
            }
        }
        do {
            return try decoder.decode(Value.self, from: data)
        } catch {
            throw .decoding("\(error)")
        }
    }
}
