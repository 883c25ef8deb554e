import ContractModel

extension Finding {
    /// What the finding is, in 16 hex digits, the same in every run that meets the same drift:
    /// a SHA-256 of the contract id, the case, the kind, the rule, the subject, the pointer with
    /// its array indices left out (`/items/*/price`: the same drift in another item, or in
    /// tomorrow's data, is the same finding) and the schema keyword. Never of values, ports,
    /// timings, messages or order, which change from run to run. Baselines match on it.
    public func fingerprint(contract: String, case caseName: String) -> String {
        var hash = SHA256()
        let parts = ["contract-finding/1", contract, caseName, kind.rawValue, rule ?? "", subject ?? "", Self.withoutIndices(pointer), keyword ?? ""]
        for part in parts {
            hash.update(part)
            // A separator no part can hold, so that moving text between parts changes the hash.
            hash.update([0])
        }
        return String(hash.hexDigest().prefix(16))
    }

    /// `/items/3/price` as `/items/*/price`. A member whose name is all digits reads as an index:
    /// such names are rare and stable, and an index is what changes.
    static func withoutIndices(_ pointer: String?) -> String {
        guard let pointer, !pointer.isEmpty else { return "" }
        return pointer.split(separator: "/", omittingEmptySubsequences: false)
            .map { token in !token.isEmpty && token.allSatisfy(\.isASCIIDigit) ? "*" : String(token) }
            .joined(separator: "/")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
