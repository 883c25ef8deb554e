import ContractModel
import ContractOpenAPI

/// A document's operations joined with a tree's contracts: which contracts describe each
/// operation, and which of their cases expect each documented response. No I/O.
///
/// A contract describes an operation when their methods are the same and their paths are the
/// same but for the placeholders' names (`/pets/{petId}` and `/pets/{id}`): the contract's path
/// against the path the import would request (``DocumentOperation/requestPath``: without the
/// key's fragment and query). A trailing slash is not aside: `/pets` and `/pets/` are two paths
/// to a server.
///
/// A case of such a contract expects a documented response when a status the case accepts is one
/// the response's key describes: the code of `200`, any code of `4XX`, and for `default` any code
/// no other key of the operation describes. So a case the import made for one response may cover
/// another: the success case accepting every documented 2XX of the same content (`[200, 201]`),
/// the case without credentials accepting `403` beside `401`, a case of a `default` that stands
/// for success (any 2XX) covering `default`.
public enum DocumentJoin {
    /// The operations in the order given (the reader's: the document's paths in order), each with
    /// the contracts that describe it and, per documented response, the cases (`contract-id/case`)
    /// that expect it, in the contracts' order.
    public static func join(_ operations: [DocumentOperation], _ contracts: [Contract]) -> [OperationCoverage] {
        let byRoute = Dictionary(grouping: contracts) { Route($0) }
        return operations.map { operation in
            let covering = byRoute[Route(operation)] ?? []
            let keys = operation.responses.map(ResponseKey.init)
            // What the operation's keys describe, once: `default` stands for the rest. (Each key
            // listing the others made a document of N responses on one operation cost N².)
            let described = ResponseKey.described(by: keys)
            let responses = zip(operation.responses, keys).map { written, key in
                let cases = covering.flatMap { contract in
                    contract.cases.filter { key.isExpected(by: $0.response.status, describedByKeys: described) }.map { "\(contract.id)/\($0.name)" }
                }
                return OperationCoverage.Response(key: written, cases: cases)
            }
            return OperationCoverage(
                method: operation.method, path: operation.path, operationID: operation.operationID, file: operation.file, line: operation.line,
                column: operation.column, contracts: covering.map(\.id), responses: responses)
        }
    }

    /// The ids of the contracts that describe no operation of the document, in their order: an
    /// endpoint the document does not have, or has under another path or method.
    public static func contractsOnNoOperation(_ operations: [DocumentOperation], _ contracts: [Contract]) -> [String] {
        let documented = Set(operations.map(Route.init))
        return contracts.filter { !documented.contains(Route($0)) }.map(\.id)
    }

    /// A method and a path with the placeholders' names left out.
    fileprivate struct Route: Hashable {
        enum Part: Hashable {
            case literal(String)
            case placeholder
        }

        var method: String
        var parts: [Part]

        init(_ contract: Contract) {
            method = contract.endpoint.method.rawValue
            var parts: [Part] = []
            for segment in contract.endpoint.path.segments {
                switch segment {
                case .literal(let text): parts.appendLiteral(text)
                case .placeholder: parts.append(.placeholder)
                }
            }
            self.parts = parts
        }

        /// Read as the import writes a contract's path from it: each `{…}` a placeholder, an
        /// unclosed `{` text.
        init(_ operation: DocumentOperation) {
            method = operation.method.uppercased()
            var parts: [Part] = []
            var rest = Substring(operation.requestPath)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                parts.appendLiteral(String(rest[..<open]))
                parts.append(.placeholder)
                rest = rest[rest.index(after: close)...]
            }
            parts.appendLiteral(String(rest))
            self.parts = parts
        }
    }

    /// A documented response's key, read as the import reads it.
    fileprivate enum ResponseKey {
        case code(Int)
        /// The first digit: 4 for `4XX`.
        case range(Int)
        case `default`
        /// A key no status matches (`x-…` aside, which is no response): nothing expects it.
        case other

        init(_ key: String) {
            let upper = key.uppercased()
            if let code = Int(key), Self.statuses.contains(code) {
                self = .code(code)
            } else if upper.count == 3, upper.hasSuffix("XX"), let first = upper.first, let digit = Int(String(first)), (1...5).contains(digit) {
                self = .range(digit)
            } else if key == "default" {
                self = .default
            } else {
                self = .other
            }
        }

        static let statuses = 100...599

        func describes(_ status: Int) -> Bool {
            switch self {
            case .code(let code): status == code
            case .range(let digit): status / 100 == digit
            case .default, .other: false
            }
        }

        /// Whether a case accepting `accepted` expects this response; `described` is what the
        /// operation's keys describe (``described(by:)``), of which `default` is the rest.
        func isExpected(by accepted: StatusExpectation, describedByKeys described: [Bool]) -> Bool {
            switch self {
            case .code(let code):
                return accepted.accepts(code)
            case .range(let digit):
                return (digit * 100...digit * 100 + 99).contains { accepted.accepts($0) }
            case .default:
                return Self.statuses.contains { status in accepted.accepts(status) && !described[status - Self.statuses.lowerBound] }
            case .other:
                return false
            }
        }

        /// For each status of ``statuses``, whether one of `keys` describes it (`default` and a
        /// key no status matches describe none, so leaving a key itself out changes nothing).
        static func described(by keys: [ResponseKey]) -> [Bool] {
            var described = [Bool](repeating: false, count: statuses.count)
            for key in keys {
                switch key {
                case .code(let code): described[code - statuses.lowerBound] = true
                case .range(let digit): for status in digit * 100...digit * 100 + 99 { described[status - statuses.lowerBound] = true }
                case .default, .other: break
                }
            }
            return described
        }
    }
}

extension [DocumentJoin.Route.Part] {
    /// Text beside text is one literal, however a template was cut into segments; no text is none.
    fileprivate mutating func appendLiteral(_ text: String) {
        guard !text.isEmpty else { return }
        if case .literal(let before)? = last {
            self[count - 1] = .literal(before + text)
        } else {
            append(.literal(text))
        }
    }
}
