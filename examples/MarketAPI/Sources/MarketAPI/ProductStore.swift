import Foundation

/// The catalogue, in memory. An actor, so concurrent creates and deletes never interleave.
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
            products[id] = Product(
                id: id, name: name, cents: cents, currency: currency, vendor: vendor, createdAt: launch.addingTimeInterval(Double(offset) * 60))
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
        let product = Product(id: nextID, name: new.name, cents: new.cents, currency: new.currency, vendor: nil, createdAt: Date())
        products[nextID] = product
        nextID += 1
        return product
    }

    func delete(_ id: Int) -> Bool {
        products.removeValue(forKey: id) != nil
    }
}
