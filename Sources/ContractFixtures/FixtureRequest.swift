import ContractJSON
import ContractModel

/// The request half of a fixture: what a unit test's client is expected to send. Secrets never
/// appear: a header or query value holding `${env:…}` is left out, and in a body it reads `***`.
/// A value captured by a setup step has no value offline; it appears as `{name}`. A
/// `${unique:NAME}` is the same stand-in every time, so fixtures stay byte-stable.
enum FixtureRequest {
    static func json(_ contract: Contract, _ testCase: ContractCase) -> JSONValue {
        let endpoint = contract.endpoint
        let headers = contract.headers(for: testCase)
        let query = contract.query(for: testCase)
        var path = ""
        for segment in endpoint.path.segments {
            switch segment {
            case .literal(let text): path += text
            case .placeholder(let name): path += testCase.request.pathParams[name].map(render) ?? "{\(name)}"
            }
        }
        var members: [JSONObject.Member] = [
            .init(key: "method", value: .string(endpoint.method.rawValue)),
            .init(key: "pathTemplate", value: .string(endpoint.path.description)),
            .init(key: "path", value: .string(path)),
        ]
        let queryItems: [JSONValue] = query.flatMap { item in
            (item.values ?? []).filter { !$0.mentionsEnvironment }.map { pair(item.name, render($0)) }
        }
        if !queryItems.isEmpty { members.append(.init(key: "query", value: .array(queryItems))) }
        let headerItems: [JSONValue] = headers.compactMap { field in
            guard let value = field.value, !value.mentionsEnvironment else { return nil }
            return pair(field.name, render(value))
        }
        if !headerItems.isEmpty { members.append(.init(key: "headers", value: .array(headerItems))) }
        switch testCase.request.body {
        case .json(let value): members.append(.init(key: "body", value: masked(value)))
        case .text(let template): members.append(.init(key: "text", value: .string(render(template))))
        case nil: break
        }
        return .object(JSONObject(members))
    }

    static func pair(_ name: String, _ value: String) -> JSONValue {
        .object(JSONObject([.init(key: "name", value: .string(name)), .init(key: "value", value: .string(value))]))
    }

    static func render(_ template: TemplateString) -> String {
        template.segments.map {
            switch $0 {
            case .literal(let text): text
            case .env: "***"
            case .capture(let name): "{\(name)}"
            case .unique(let name): UniqueValues.stable.value(for: name)
            }
        }.joined()
    }

    private static func masked(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let string):
            guard string.contains("${"), let template = try? TemplateString(parsing: string) else { return value }
            return .string(render(template))
        case .array(let elements): return .array(elements.map(masked))
        case .object(let object): return .object(JSONObject(object.members.map { .init(key: $0.key, value: masked($0.value)) }))
        default: return value
        }
    }
}
