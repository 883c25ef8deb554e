import ContractModel

/// The order cases run and are reported in: every case that only reads (its request and its
/// setup and teardown steps all GET, HEAD or OPTIONS) first, then the cases that change state, each group in
/// contract order. Reads then see the server as it was before any case changed it, however many
/// requests run at once.
enum RunOrder {
    static func arranged<Case>(_ cases: [Case], changesState: (Case) -> Bool) -> [Case] {
        cases.filter { !changesState($0) } + cases.filter(changesState)
    }
}

/// Which resources a case touches and whether it changes them: what the executor needs to keep
/// a case that deletes an item from running beside the case that reads it.
struct ResourceAccess: Sendable {
    /// A POST, PUT, PATCH or DELETE among the case's requests.
    let changes: Bool
    /// The path of each request, as segments; nil for a segment that is only known at run time
    /// (a captured or secret value), which may be any; no segments for a followed link.
    let paths: [[String?]]

    init(_ contract: Contract, _ testCase: ContractCase) {
        changes = Self.changesState(contract, testCase)
        // A request that follows a link may go anywhere on the server: its path is "any".
        paths = [testCase.request.url == nil ? Self.segments(contract.endpoint.path, testCase.request.pathParams) : []]
            + (testCase.setup + testCase.teardown).map { $0.request.url == nil ? Self.segments($0.path, $0.request.pathParams) : [] }
    }

    static func changesState(_ contract: Contract, _ testCase: ContractCase) -> Bool {
        !isSafe(contract.endpoint.method) || (testCase.setup + testCase.teardown).contains { !isSafe($0.method) }
    }

    /// Two cases may not run at once when one changes state and they touch paths on one branch:
    /// the same path, or one inside the other (deleting `/items/1` changes `/items` and
    /// `/items/1/reviews`).
    func conflicts(with other: ResourceAccess) -> Bool {
        guard changes || other.changes else { return false }
        return paths.contains { mine in other.paths.contains { Self.onOneBranch(mine, $0) } }
    }

    private static func onOneBranch(_ a: [String?], _ b: [String?]) -> Bool {
        for (x, y) in zip(a, b) {
            if let x, let y, x != y { return false }
        }
        return true
    }

    private static func isSafe(_ method: HTTPMethod) -> Bool {
        method == .get || method == .head || method == .options
    }

    /// The path with its parameters filled in where they are literal.
    private static func segments(_ path: PathTemplate, _ parameters: PathParameters) -> [String?] {
        var text = ""
        for segment in path.segments {
            switch segment {
            case .literal(let literal):
                text += literal
            case .placeholder(let name):
                switch parameters[name] {
                case nil:
                    break  // no value: no text
                case let value?:
                    // A value with a placeholder is known only at run time: marked so the segment
                    // it lands in is read as "any".
                    text += value.literalText ?? "\u{0}"
                }
            }
        }
        return text.split(separator: "/", omittingEmptySubsequences: true).map { $0.contains("\u{0}") ? nil : String($0) }
    }
}
