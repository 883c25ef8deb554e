extension Contract {
    /// The headers a case sends: the endpoint's, with the case's over them by name (in any case);
    /// a case header whose value is null stays in the list with no value, which removes it.
    public func headers(for testCase: ContractCase) -> [HeaderField] {
        Self.merge(endpoint.headers, testCase.request.headers, name: \.name)
    }

    /// The query a case sends, merged the same way as ``headers(for:)``.
    public func query(for testCase: ContractCase) -> [QueryItem] {
        Self.merge(endpoint.query, testCase.request.query, name: \.name)
    }

    private static func merge<Item>(_ base: [Item], _ overrides: [Item], name: (Item) -> String) -> [Item] {
        var merged = base
        for item in overrides {
            if let index = merged.firstIndex(where: { name($0).lowercased() == name(item).lowercased() }) {
                merged[index] = item
            } else {
                merged.append(item)
            }
        }
        return merged
    }
}
