import Foundation

/// JSON bodies written by hand, so that prices are exact decimals (1.5, 0.8, 24.99) and keys keep
/// a stable order; the drift mode changes them here.
struct Rendering: Sendable {
    let drift: Drift

    func product(_ product: Product) -> String {
        var members: [(String, String)] = [
            ("id", String(product.id)),
            ("name", Self.string(product.name)),
            ("price", drift.contains(.priceAsString) ? Self.string(Self.decimal(product.cents, fixed: true)) : Self.decimal(product.cents)),
            ("currency", Self.string(product.currency)),
        ]
        if let vendor = product.vendor {
            members.append(("vendor", Self.object([("id", String(vendor.id)), ("name", Self.string(vendor.name))])))
        }
        members.append((drift.contains(.renamedField) ? "created_at" : "createdAt", Self.string(product.createdAt.formatted(.iso8601))))
        members.append(("updatedAt", Self.string(product.updatedAt.formatted(.iso8601))))
        return Self.object(members)
    }

    func page(_ items: [Product], number: Int, size: Int, total: Int) -> String {
        Self.object([
            ("items", "[" + items.map(product).joined(separator: ",") + "]"),
            ("page_no", String(number)), ("items_per_page", String(size)), ("total_items", String(total)),
        ])
    }

    func error(_ error: APIError) -> String {
        Self.object([("error", Self.object([("code", Self.string(error.code)), ("message", Self.string(error.message))]))])
    }

    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// `150` cents as `1.5` (or `1.50` when `fixed`).
    static func decimal(_ cents: Int, fixed: Bool = false) -> String {
        let whole = "\(cents / 100)"
        let fraction = String(format: "%02d", cents % 100)
        if fixed { return whole + "." + fraction }
        if cents % 100 == 0 { return whole }
        return whole + "." + (fraction.hasSuffix("0") ? String(fraction.prefix(1)) : fraction)
    }

    static func string(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 {
                    escaped += String(format: "\\u%04x", scalar.value)
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped + "\""
    }
}

/// The ways `--drift` makes the server disagree with its contracts, as real servers drift.
struct Drift: OptionSet, Sendable {
    let rawValue: Int
    /// `createdAt` is sent as `created_at`.
    static let renamedField = Drift(rawValue: 1 << 0)
    /// `price` is sent as a string, `"1.50"`.
    static let priceAsString = Drift(rawValue: 1 << 1)
    /// `201 Created` comes without its `Location` header.
    static let missingLocation = Drift(rawValue: 1 << 2)
    /// `DELETE` answers `200` with a body instead of `204 No Content`.
    static let deleteReturnsOK = Drift(rawValue: 1 << 3)
    /// A create stores the price rounded to whole units: every single response still keeps the
    /// schema; only a flow that reads back what it sent sees it.
    static let priceRoundedOnStore = Drift(rawValue: 1 << 4)
    /// `DELETE` answers as if it deleted, and keeps the product: a read after it still finds it.
    static let deleteKeepsProduct = Drift(rawValue: 1 << 5)
    /// A `PATCH` that changes the price and sends no currency resets the currency to `USD`, as a
    /// handler that decodes the body into a whole product with defaults does: the answer keeps the
    /// schema; only a flow that knows the currency the product was made with sees it.
    static let updateResetsFields = Drift(rawValue: 1 << 6)
    /// `PATCH` answers with the changed product and keeps the old one: a read after it shows the
    /// values from before.
    static let updateNotStored = Drift(rawValue: 1 << 7)
    /// An update leaves `updatedAt` where it was (at `createdAt`, for a product never updated).
    static let staleUpdatedAt = Drift(rawValue: 1 << 8)

    static let all: Drift = [
        .renamedField, .priceAsString, .missingLocation, .deleteReturnsOK, .priceRoundedOnStore, .deleteKeepsProduct,
        .updateResetsFields, .updateNotStored, .staleUpdatedAt,
    ]
}
