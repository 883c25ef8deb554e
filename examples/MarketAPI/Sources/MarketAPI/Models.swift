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
    /// `createdAt` until the first update; then the time of the last one.
    var updatedAt: Date

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
        ProductFields.parse(body, allRequired: true).flatMap { fields in
            guard let name = fields.name, let cents = fields.cents, let currency = fields.currency else {
                return .failure(.invalidProduct("name, price and currency are required"))
            }
            return .success(NewProduct(name: name, cents: cents, currency: currency))
        }
    }
}

/// What an update changes (`contracts/schemas/product-changes.json`): any of a new product's
/// fields, at least one; a field left out keeps its value.
struct ProductChanges: Sendable {
    var name: String?
    var cents: Int?
    var currency: String?

    /// The changes, or the message of the 400 that explains what is wrong.
    static func parse(_ body: Data) -> Result<ProductChanges, APIError> {
        ProductFields.parse(body, allRequired: false).flatMap { fields in
            if fields.name == nil, fields.cents == nil, fields.currency == nil {
                return .failure(.invalidProduct("the body must change at least one of name, price, currency"))
            }
            return .success(ProductChanges(name: fields.name, cents: fields.cents, currency: fields.currency))
        }
    }
}

/// A create's or an update's body, read one way for both: the same fields, refused for the same
/// reasons with the same messages. A create needs every field; an update takes any of them, and
/// `null` is no value it can set.
private struct ProductFields {
    var name: String?
    var cents: Int?
    var currency: String?

    static func parse(_ body: Data, allRequired: Bool) -> Result<ProductFields, APIError> {
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
        let typeMessage = "name and currency must be strings, price a number"
        guard let fields = try? JSONDecoder().decode(Fields.self, from: body) else { return .failure(.invalidProduct(typeMessage)) }
        if !allRequired, object.values.contains(where: { $0 is NSNull }) { return .failure(.invalidProduct(typeMessage)) }
        var parsed = ProductFields()
        if let name = fields.name {
            guard (1...200).contains(name.count) else { return .failure(.invalidProduct("name must have 1 to 200 characters")) }
            parsed.name = name
        } else if allRequired {
            return .failure(.invalidProduct("name is required"))
        }
        if let price = fields.price {
            let cents = (price * 100).rounded()
            guard price >= 0, abs(cents - price * 100) < 1e-6 else {
                return .failure(.invalidProduct("price must be 0 or more, in steps of 0.01"))
            }
            parsed.cents = Int(cents)
        } else if allRequired {
            return .failure(.invalidProduct("price is required"))
        }
        if let currency = fields.currency {
            guard NewProduct.currencies.contains(currency) else { return .failure(.invalidProduct("currency must be one of EUR, KRW, USD")) }
            parsed.currency = currency
        } else if allRequired {
            return .failure(.invalidProduct("currency must be one of EUR, KRW, USD"))
        }
        return .success(parsed)
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
