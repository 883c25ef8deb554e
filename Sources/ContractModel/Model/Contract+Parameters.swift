import ContractJSON

/// A value a case sends for a described parameter (``RequestParameter``).
public struct SentParameter: Sendable, Hashable {
    /// The texts as they go on the wire (several for a repeated query parameter); nil when a
    /// placeholder fills one at run time, so nothing can be said of it before.
    public var texts: [String]?
    /// Where the case (or the endpoint, when the case inherits it) writes the value.
    public var pointer: JSONPointer
}

extension Contract {
    /// What `testCase` sends for `parameter`, or nil when it does not send it (or removes an
    /// endpoint's value with null).
    public func sentValues(of parameter: RequestParameter, in testCase: ContractCase) -> SentParameter? {
        let request = testCase.pointer.appending("request")
        switch parameter.location {
        case .path:
            guard let value = testCase.request.pathParams[parameter.name] else { return nil }
            return SentParameter(texts: value.literal.map { [$0] }, pointer: request.appending("pathParams").appending(parameter.name))
        case .query:
            guard let item = query(for: testCase).first(where: { $0.name == parameter.name }), let values = item.values else { return nil }
            let owner = testCase.request.query.contains { $0.name == parameter.name } ? request : JSONPointer(tokens: ["request"])
            let texts = values.compactMap(\.literal)
            return SentParameter(texts: texts.count == values.count ? texts : nil, pointer: owner.appending("query").appending(item.name))
        case .header:
            let same = { (field: HeaderField) in field.name.lowercased() == parameter.name.lowercased() }
            guard let field = headers(for: testCase).first(where: same), let value = field.value else { return nil }
            let owner = testCase.request.headers.contains(where: same) ? request : JSONPointer(tokens: ["request"])
            return SentParameter(texts: value.literal.map { [$0] }, pointer: owner.appending("headers").appending(field.name))
        }
    }
}

extension Contract {
    /// The schema the diff compares for a case's request: its own, else the endpoint's (for a
    /// case that does not expect a 4xx, as lint holds them).
    public func requestSchema(for testCase: ContractCase) -> SchemaReference? {
        testCase.request.schema ?? (testCase.response.status.isClientError ? nil : endpoint.schema)
    }
}

extension TemplateString {
    /// The text, when it holds no placeholder.
    public var literal: String? {
        var text = ""
        for segment in segments {
            guard case .literal(let part) = segment else { return nil }
            text += part
        }
        return text
    }
}

extension StatusExpectation {
    /// Every status it accepts is a 4xx: the case is about a request the server refuses, and may
    /// send one that breaks the endpoint's description on purpose.
    public var isClientError: Bool {
        !alternatives.isEmpty
            && alternatives.allSatisfy {
                switch $0 {
                case .code(let code): (400..<500).contains(code)
                case .class(let digit): digit == 4
                }
            }
    }
}

extension Contract {
    /// The schema every request's body is held to: the endpoint's `request.schema`, else, in a
    /// tree written before endpoints had one, the one schema every case that does not expect a 4xx
    /// names for its body (several different ones say nothing of the endpoint).
    public var requestBodySchema: SchemaReference? {
        if let schema = endpoint.schema { return schema }
        let schemas = cases.filter { !$0.response.status.isClientError }.map(\.request.schema)
        guard let first = schemas.first, let schema = first, schemas.allSatisfy({ $0?.schema == schema.schema }) else { return nil }
        return schema
    }
}
