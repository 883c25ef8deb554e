import Foundation

public struct Product: Decodable, Equatable, Sendable {
    public var id: Int
    public var name: String
    public var price: Decimal
    public var currency: String
    public var vendor: Vendor?
    public var createdAt: Date
    /// `createdAt` until the first update, then the time of the last one.
    public var updatedAt: Date

    public struct Vendor: Decodable, Equatable, Sendable {
        public var id: Int
        public var name: String
    }
}

public struct ProductPage: Decodable, Equatable, Sendable {
    public var items: [Product]
    public var pageNo: Int
    public var itemsPerPage: Int
    public var totalItems: Int

    enum CodingKeys: String, CodingKey {
        case items
        case pageNo = "page_no"
        case itemsPerPage = "items_per_page"
        case totalItems = "total_items"
    }
}

/// What can go wrong, typed for the app: the API's own errors, and the network's.
public enum MarketError: Error, Equatable, Sendable {
    case notFound(message: String)
    case invalid(code: String, message: String)
    case unauthorized
    case server(status: Int)
    /// The response did not have the shape the client expects.
    case decoding(String)
    case network(URLError.Code)
}

/// The API's error body: `{"error": {"code": "...", "message": "..."}}`.
struct ErrorBody: Decodable {
    struct Detail: Decodable {
        var code: String
        var message: String
    }

    var error: Detail
}
