import ContractSchema

/// Whether a contract id and case name, as a test writes them (`use("products.get", case:
/// "missing")`), name cases of a set of routes; when not, the message says which name was meant.
/// The stubs and the mock server check a test's names with this one rule.
public enum CaseNames {
    /// What is wrong with the names.
    public enum Problem: Sendable, Hashable {
        case noRoutes
        case unknownContract
        case unknownCase
    }

    /// Up to this many names are listed in a message; beyond, only the nearest and a count.
    public static let listedNames = 12

    /// Nil when `contract` (and `caseName`, when given) name routes of `routes`; else what is
    /// wrong and the message, opened by `call` (the call as written).
    public static func problem(contract: String, caseName: String?, in routes: [Route], call: String, holder: String) -> (Problem, String)? {
        guard !routes.isEmpty else { return (.noRoutes, "\(call): \(holder) has no fixtures") }
        let cases = routes.filter { $0.contract == contract }.map(\.caseName)
        guard !cases.isEmpty else {
            let contracts = Array(Set(routes.map(\.contract))).sorted()
            return (
                .unknownContract, "\(call): no contract '\(contract)' in \(holder)'s fixtures; \(suggestion(for: contract, in: contracts, kind: "contracts"))"
            )
        }
        guard let caseName, !cases.contains(caseName) else { return nil }
        return (.unknownCase, "\(call): \(contract) has no case '\(caseName)'; \(suggestion(for: caseName, in: Array(Set(cases)).sorted(), kind: "cases"))")
    }

    /// `did you mean 'x'? (cases: a, x)`, or `(one of 40 cases)` when there are many.
    public static func suggestion(for name: String, in names: [String], kind: String) -> String {
        let listing = names.count <= listedNames ? "\(kind): \(names.joined(separator: ", "))" : "one of \(names.count) \(kind)"
        return "did you mean '\(nearest(to: name, in: names) ?? "")'? (\(listing))"
    }

    /// The name fewest single-character edits away (``Suggestion/editDistance(_:_:)``), the
    /// first in sorted order on a tie; always a name, however far, where a typo hint is not.
    public static func nearest(to name: String, in names: [String]) -> String? {
        var best: (distance: Int, name: String)? = nil
        for candidate in names.sorted() {
            let distance = Suggestion.editDistance(name, candidate)
            if distance < best?.distance ?? .max { best = (distance, candidate) }
        }
        return best?.name
    }
}
