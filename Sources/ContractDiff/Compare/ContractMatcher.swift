import ContractModel

/// Pairs the contracts of two trees: by id; then a contract whose id is gone with one whose id is
/// new on the same endpoint (method and path, placeholder names aside), which is the same endpoint
/// under another name. What is left was removed or added.
struct ContractPairs {
    var pairs: [(old: Contract, new: Contract)] = []
    var removed: [Contract] = []
    var added: [Contract] = []

    init(old: [Contract], new: [Contract]) {
        let newByID = Dictionary(new.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oldIDs = Set(old.map(\.id))
        var unpairedNew = new.filter { !oldIDs.contains($0.id) }
        for contract in old.sorted(by: { $0.id < $1.id }) {
            if let match = newByID[contract.id] {
                pairs.append((contract, match))
            } else if let index = unpairedNew.firstIndex(where: { Self.endpoint($0) == Self.endpoint(contract) }) {
                pairs.append((contract, unpairedNew.remove(at: index)))
            } else {
                removed.append(contract)
            }
        }
        added = unpairedNew.sorted { $0.id < $1.id }
    }

    /// `GET /products/{}`: the method and the path with placeholders unnamed.
    static func endpoint(_ contract: Contract) -> String {
        "\(contract.endpoint.method.rawValue) " + shape(contract.endpoint.path)
    }

    /// The path with placeholders unnamed: `/products/{}` for `/products/{id}` and `/products/{productId}`.
    static func shape(_ path: PathTemplate) -> String {
        path.segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .placeholder: "{}"
            }
        }.joined()
    }
}
