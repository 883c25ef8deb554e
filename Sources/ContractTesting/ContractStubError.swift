import Foundation

/// A contract id or case name that none of a stub's fixtures has. Thrown by the call that names it
/// (`use(_:case:)`, `inject(_:for:)`), so a typo fails where it was written, with the nearest name,
/// rather than being ignored or failing at some later request.
public struct ContractStubError: Error, Sendable, CustomStringConvertible, LocalizedError {
    public var description: String

    public var errorDescription: String? { description }

    init(_ description: String) {
        self.description = description
    }

    /// Up to this many names are listed in a message; beyond, only the nearest and a count.
    static let listedNames = 12

    /// Checks that `contract` (and `caseName`, when given) name fixtures of `fixtures`.
    /// - Parameter call: the call as written, to open the message with.
    static func check(contract: String, caseName: String? = nil, in fixtures: [StubFixture], call: String) throws(ContractStubError) {
        guard !fixtures.isEmpty else { throw ContractStubError("\(call): this stub has no fixtures") }
        let cases = fixtures.filter { $0.contract == contract }.map(\.caseName)
        guard !cases.isEmpty else {
            let contracts = Array(Set(fixtures.map(\.contract))).sorted()
            throw ContractStubError(
                "\(call): no contract '\(contract)' in this stub's fixtures; \(suggestion(for: contract, in: contracts, kind: "contracts"))")
        }
        guard let caseName, !cases.contains(caseName) else { return }
        throw ContractStubError(
            "\(call): \(contract) has no case '\(caseName)'; \(suggestion(for: caseName, in: Array(Set(cases)).sorted(), kind: "cases"))")
    }

    /// `did you mean 'x'? (cases: a, x)`, or `(one of 40 cases)` when there are many.
    static func suggestion(for name: String, in names: [String], kind: String) -> String {
        let listing = names.count <= listedNames ? "\(kind): \(names.joined(separator: ", "))" : "one of \(names.count) \(kind)"
        return "did you mean '\(nearest(to: name, in: names) ?? "")'? (\(listing))"
    }

    /// The name fewest single-character edits away (Levenshtein), the first in `names` on a tie.
    static func nearest(to name: String, in names: [String]) -> String? {
        let target = Array(name)
        var best: (distance: Int, name: String)? = nil
        for candidate in names.sorted() {
            let distance = editDistance(target, Array(candidate))
            if distance < best?.distance ?? .max { best = (distance, candidate) }
        }
        return best?.name
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        var current = previous
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
