import Foundation

/// A product as the API sends it (`contracts/schemas/product.json`).
struct Product: Sendable {
    var id: Int
    var name: String
    /// In hundredths, so that prices stay exact multiples of 0.01.
    var cents: Int
    var currency: String
    var vendor: Vendor?
    var createdAt: Date

    struct Vendor: Sendable {
        var id: Int
        var name: String
    }
}

/// A product to create (`contracts/schemas/new-product.json`), read from a request body.
struct NewProduct: Sendable {
    var name: String
    var cents: Int
    var currency: String

    static let currencies: Set<String> = ["KRW", "USD", "EUR"]

    /// The product, or the message of the 400 that explains what is wrong.
    static func parse(_ body: Data) -> Result<NewProduct, APIError> {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            return .failure(.invalidProduct("the body must be a JSON object"))
        }
        if let unknown = object.keys.sorted().first(where: { !["name", "price", "currency"].contains($0) }) {
            return .failure(.invalidProduct("unknown field '\(unknown)'"))
        }
        // Typed values through Decodable: a number is a number there, never a boolean.
        struct Fields: Decodable {
            var name: String?
            var price: Double?
            var currency: String?
        }
        guard let fields = try? JSONDecoder().decode(Fields.self, from: body) else {
            return .failure(.invalidProduct("name and currency must be strings, price a number"))
        }
        guard let name = fields.name else { return .failure(.invalidProduct("name is required")) }
        guard (1...200).contains(name.count) else { return .failure(.invalidProduct("name must have 1 to 200 characters")) }
        guard let price = fields.price else { return .failure(.invalidProduct("price is required")) }
        let cents = (price * 100).rounded()
        guard price >= 0, abs(cents - price * 100) < 1e-6 else {
            return .failure(.invalidProduct("price must be 0 or more, in steps of 0.01"))
        }
        guard let currency = fields.currency, currencies.contains(currency) else {
            return .failure(.invalidProduct("currency must be one of EUR, KRW, USD"))
        }
        return .success(NewProduct(name: name, cents: Int(cents), currency: currency))
    }
}

/// The errors the API answers with (`contracts/schemas/error.json`).
struct APIError: Error, Sendable {
    var status: Int
    var code: String
    var message: String

    static func invalidProduct(_ message: String) -> APIError { APIError(status: 400, code: "invalid_product", message: message) }
    static func invalidPage(_ message: String) -> APIError { APIError(status: 400, code: "invalid_page", message: message) }
    static func notFound(_ id: String) -> APIError { APIError(status: 404, code: "not_found", message: "no product with id \(id)") }
    static let unauthorized = APIError(status: 401, code: "unauthorized", message: "a valid bearer token is required")
}
