import ContractJSON
import ContractModel

/// The headers or query parameters the cases of a contract send, by name: header names in lower
/// case (HTTP compares them ignoring case), query parameter names as written (servers do not). A
/// header or parameter with a null value removes the endpoint's and is not sent.
struct RequestParameters {
    enum Kind: String, CaseIterable {
        case header
        case query = "query parameter"
    }

    /// Names every case sends.
    let everyCase: Set<String>
    /// Names some case sends.
    let anyCase: Set<String>
    private let sent: [String: Set<String>]
    private let contract: Contract
    private let kind: Kind

    init(_ contract: Contract, _ kind: Kind) {
        self.contract = contract
        self.kind = kind
        var sent: [String: Set<String>] = [:]
        for testCase in contract.cases { sent[testCase.name] = Self.names(contract, testCase, kind) }
        self.sent = sent
        let sets = Array(sent.values)
        everyCase = sets.first.map { first in sets.dropFirst().reduce(first) { $0.intersection($1) } } ?? []
        anyCase = sets.reduce(Set()) { $0.union($1) }
    }

    func names(in testCase: ContractCase) -> Set<String> {
        sent[testCase.name] ?? []
    }

    /// The value the first place that writes `name` gives it, as written.
    func firstValue(_ name: String) -> String? {
        switch kind {
        case .header:
            contract.cases.lazy.flatMap { contract.headers(for: $0) }.first { $0.name.lowercased() == name }?.value?.description
        case .query:
            contract.cases.lazy.flatMap { contract.query(for: $0) }.first { $0.name == name }?.values?.map(\.description).joined(separator: ", ")
        }
    }

    /// Where `name` is written: the endpoint's request when it writes it, else the first case's.
    func firstPlace(_ name: String) -> JSONPointer {
        let key = kind == .header ? "headers" : "query"
        let endpointNames = kind == .header ? contract.endpoint.headers.map(\.name) : contract.endpoint.query.map(\.name)
        if let written = endpointNames.first(where: { matches($0, name) }) {
            return JSONPointer(tokens: ["request", key, written])
        }
        for testCase in contract.cases {
            let names = kind == .header ? testCase.request.headers.map(\.name) : testCase.request.query.map(\.name)
            if let written = names.first(where: { matches($0, name) }) {
                return testCase.pointer.appending("request").appending(key).appending(written)
            }
        }
        return JSONPointer(tokens: ["request"])
    }

    private func matches(_ written: String, _ name: String) -> Bool {
        kind == .header ? written.lowercased() == name : written == name
    }

    /// Content-Type is compared with the body it describes (`request-content-type-changed`).
    private static func names(_ contract: Contract, _ testCase: ContractCase, _ kind: Kind) -> Set<String> {
        switch kind {
        case .header:
            Set(contract.headers(for: testCase).filter { $0.value != nil }.map { $0.name.lowercased() }.filter { $0 != "content-type" })
        case .query:
            Set(contract.query(for: testCase).filter { $0.values != nil }.map(\.name))
        }
    }
}
