import Foundation

/// The catalogue, in memory. An actor, so concurrent creates, updates and deletes never interleave.
actor ProductStore {
    private var products: [Int: Product] = [:]
    private var nextID = 1

    init() {
        let launch = Date(timeIntervalSince1970: 1_767_605_400)  // 2026-01-05T09:30:00Z
        let vendor = Product.Vendor(id: 7, name: "Morning Glory")
        let seed: [(String, Int, String, Product.Vendor?)] = [
            ("Pencil", 150, "KRW", vendor), ("Eraser", 80, "KRW", vendor), ("Notebook", 450, "KRW", vendor),
            ("Fountain pen", 3_900, "EUR", nil), ("Desk lamp", 2_499, "USD", nil),
        ]
        for (offset, (name, cents, currency, vendor)) in seed.enumerated() {
            let id = offset + 1
            let created = launch.addingTimeInterval(Double(offset) * 60)
            products[id] = Product(id: id, name: name, cents: cents, currency: currency, vendor: vendor, createdAt: created, updatedAt: created)
        }
        nextID = seed.count + 1
    }

    func page(number: Int, size: Int) -> (items: [Product], total: Int) {
        let all = products.values.sorted { $0.id < $1.id }
        let start = min(all.count, (number - 1) * size)
        return (Array(all[start..<min(all.count, start + size)]), all.count)
    }

    func product(_ id: Int) -> Product? {
        products[id]
    }

    func create(_ new: NewProduct) -> Product {
        let now = Self.now()
        let product = Product(id: nextID, name: new.name, cents: new.cents, currency: new.currency, vendor: nil, createdAt: now, updatedAt: now)
        products[nextID] = product
        nextID += 1
        return product
    }

    /// The product with the changes made, or nil when there is none with this id. The drifting
    /// mode answers with changes it does not `keep`, or does not `stamp` with the time.
    func update(_ id: Int, with changes: ProductChanges, keep: Bool = true, stamp: Bool = true) -> Product? {
        guard var product = products[id] else { return nil }
        if let name = changes.name { product.name = name }
        if let cents = changes.cents { product.cents = cents }
        if let currency = changes.currency { product.currency = currency }
        // Times are sent in whole seconds: an update within the second of the last change is
        // stamped a second after it, so that `updatedAt` always moves forward.
        if stamp { product.updatedAt = max(Self.now(), product.updatedAt.addingTimeInterval(1)) }
        if keep { products[id] = product }
        return product
    }

    func delete(_ id: Int) -> Bool {
        products.removeValue(forKey: id) != nil
    }

    /// The clock in whole seconds, as the API sends times (`2026-01-05T09:30:00Z`).
    private static func now() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }
}
