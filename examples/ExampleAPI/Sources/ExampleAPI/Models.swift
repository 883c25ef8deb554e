import Foundation

/// A product of the catalogue (`contracts/schemas/product.json`).
struct Product: Sendable, Equatable {
    var id: Int
    var name: String
    /// The price in hundredths. Kept as an integer so that every price stays an exact multiple of
    /// 0.01 (the schema's `multipleOf`) however it was sent or is rendered.
    var cents: Int
    var currency: Currency
    /// Optional in the schema: some products are sold by the marketplace itself.
    var vendor: Vendor?
    var createdAt: Date

    struct Vendor: Sendable, Equatable, Codable {
        var id: Int
        var name: String
    }
}

/// The currencies the schema's `Currency` enum allows.
enum Currency: String, Sendable, Codable, CaseIterable {
    case krw = "KRW"
    case usd = "USD"
    case eur = "EUR"
}

extension Product: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, name, price, currency, vendor, createdAt
    }

    /// The JSON body. Drift that changes how a value is written (rather than which key it goes
    /// under, which the encoder's key strategy decides) is read from `userInfo`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        if encoder.userInfo[.priceAsString] as? Bool == true {
            try container.encode(Price.fixed(cents), forKey: .price)
        } else {
            try container.encode(Price.number(cents), forKey: .price)
        }
        try container.encode(currency, forKey: .currency)
        try container.encodeIfPresent(vendor, forKey: .vendor)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

extension CodingUserInfoKey {
    /// Set by `--drift`: prices are written as strings.
    static let priceAsString = CodingUserInfoKey(rawValue: "priceAsString")!
}

/// Conversions between hundredths and what goes over the wire.
enum Price {
    /// The largest price accepted. The schema sets no maximum; this one keeps `price * 100` well
    /// inside the range where a Double still tells hundredths apart (and an Int never overflows).
    static let maximumCents = 100_000_000_000  // 1,000,000,000.00

    /// `150` as the number `1.5`. Integer division by 100 in binary floating point is correctly
    /// rounded, so the Double is the one nearest to the decimal and prints as `1.5`, never as
    /// `1.5000000000000002`.
    static func number(_ cents: Int) -> Double {
        Double(cents) / 100
    }

    /// `150` as `"1.50"`: what a server that formats prices for display would send.
    static func fixed(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// A price from a request, in hundredths, or nil when it is not a non-negative multiple of
    /// 0.01 within range. `0.8 * 100` is `80.00000000000001` in binary, so "is a whole number of
    /// hundredths" allows a few units in the last place instead of asking for exact equality.
    static func cents(from price: Double) -> Int? {
        guard price.isFinite, price >= 0 else { return nil }
        let scaled = price * 100
        guard scaled <= Double(maximumCents) else { return nil }
        let whole = scaled.rounded()
        guard abs(scaled - whole) <= 4 * max(scaled.ulp, Double.ulpOfOne) else { return nil }
        return Int(whole)
    }
}

/// A product to add (`contracts/schemas/new-product.json`), checked field by field so that a 400
/// says exactly what is wrong.
struct NewProduct: Sendable, Equatable {
    var name: String
    var cents: Int
    var currency: Currency

    private static let fields: Set<String> = ["name", "price", "currency"]

    /// Validates a request body against the NewProduct schema: an object with exactly `name`
    /// (1 to 200 characters), `price` (a number, 0 or more, in steps of 0.01) and `currency`.
    static func validate(_ body: JSONValue) -> Result<NewProduct, APIError> {
        guard case .object(let object) = body else {
            return .failure(.invalidProduct("the body must be a JSON object"))
        }
        // The schema has `additionalProperties: false`: a misspelt field is an error, not ignored.
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            return .failure(.invalidProduct("unknown field '\(unknown)'"))
        }

        guard let nameValue = object["name"] else { return .failure(.invalidProduct("name is required")) }
        guard case .string(let name) = nameValue else { return .failure(.invalidProduct("name must be a string")) }
        // JSON Schema counts a string's length in Unicode code points, not in grapheme clusters.
        guard (1...200).contains(name.unicodeScalars.count) else {
            return .failure(.invalidProduct("name must have 1 to 200 characters"))
        }

        guard let priceValue = object["price"] else { return .failure(.invalidProduct("price is required")) }
        guard case .number(let price) = priceValue else { return .failure(.invalidProduct("price must be a number")) }
        guard let cents = Price.cents(from: price) else {
            return .failure(.invalidProduct("price must be from 0 to 1000000000, in steps of 0.01"))
        }

        guard let currencyValue = object["currency"] else { return .failure(.invalidProduct("currency is required")) }
        guard case .string(let code) = currencyValue, let currency = Currency(rawValue: code) else {
            let allowed = Currency.allCases.map(\.rawValue).sorted().joined(separator: ", ")
            return .failure(.invalidProduct("currency must be one of \(allowed)"))
        }
        return .success(NewProduct(name: name, cents: cents, currency: currency))
    }
}

/// Any JSON value, so that a body is parsed once and each field's type is checked by hand (a
/// Decodable struct would turn every mistake into the same opaque decoding error).
enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: JSONDecoder never reads `true` as a number or `1` as a Bool, so
        // the order only matters for speed, but a boolean price must come out as `.bool`.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
