import ContractHTTP
import ContractJSON
import ContractModel

/// A request as shown in reports: placeholders filled in, secrets masked.
public struct DisplayedRequest: Sendable, Hashable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: String?
}

/// Turns a contract's request (endpoint plus case, or a setup step) into the HTTP request to
/// send and the one to show, which differ only where secrets are.
struct RequestBuilder: Sendable {
    let baseURL: String
    let extraHeaders: [HeaderField]

    init(baseURL: String, extraHeaders: [HeaderField]) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.extraHeaders = extraHeaders
    }

    /// The case's own request: the endpoint's headers and query with the case's merged over them.
    func build(_ contract: Contract, _ testCase: ContractCase, _ bindings: Bindings) -> (send: HTTPRequest, show: DisplayedRequest) {
        let endpoint = contract.endpoint
        return build(
            method: endpoint.method, path: endpoint.path, pathParams: testCase.request.pathParams,
            query: contract.query(for: testCase), headers: contract.headers(for: testCase), body: testCase.request.body, bindings)
    }

    /// A setup step's request, which stands alone: nothing is inherited from the endpoint.
    func build(_ step: SetupStep, _ bindings: Bindings) -> (send: HTTPRequest, show: DisplayedRequest) {
        build(method: step.method, path: step.path, pathParams: step.request.pathParams, query: step.request.query,
            headers: step.request.headers, body: step.request.body, bindings)
    }

    private func build(
        method: HTTPMethod, path: PathTemplate, pathParams: [String: TemplateString], query: [QueryItem], headers: [HeaderField],
        body: RequestBody?, _ bindings: Bindings
    ) -> (send: HTTPRequest, show: DisplayedRequest) {
        func url(_ render: (TemplateString) -> String) -> String {
            var text = baseURL
            for segment in path.segments {
                switch segment {
                case .literal(let literal): text += literal
                case .placeholder(let name): text += PercentEncoding.pathSegment(pathParams[name].map(render) ?? "")
                }
            }
            let pairs = query.flatMap { item in (item.values ?? []).map { (item.name, render($0)) } }
            if !pairs.isEmpty {
                text += "?" + pairs.map { PercentEncoding.queryComponent($0.0) + "=" + PercentEncoding.queryComponent($0.1) }.joined(separator: "&")
            }
            return text
        }
        // What is shown differs from what is sent only where `${env:…}` appears; the rest is built once.
        func secret(_ template: TemplateString) -> Bool { template.mentionsEnvironment }
        var sendHeaders: [HTTPHeader] = []
        var showHeaders: [HTTPHeader] = []
        for field in headers {
            guard let value = field.value else { continue }
            let sent = HTTPHeader(field.name, bindings.render(value))
            sendHeaders.append(sent)
            showHeaders.append(secret(value) ? HTTPHeader(field.name, bindings.display(value)) : sent)
        }
        var sendBody: [UInt8]? = nil
        var showBody: String? = nil
        switch body {
        case .json(let value):
            let sent = CanonicalJSONWriter(style: .compact).bytes(bindings.render(value, redacted: false))
            sendBody = sent
            showBody = Self.mentionsEnvironment(value)
                ? CanonicalJSONWriter(style: .compact).string(bindings.render(value, redacted: true)) : String(decoding: sent, as: UTF8.self)
            if !sendHeaders.contains(where: { $0.hasName("Content-Type") }) {
                sendHeaders.append(HTTPHeader("Content-Type", "application/json"))
                showHeaders.append(HTTPHeader("Content-Type", "application/json"))
            }
        case .text(let template):
            sendBody = Array(bindings.render(template).utf8)
            showBody = bindings.display(template)
        case nil:
            break
        }
        for header in extraHeaders {
            guard let value = header.value else { continue }
            sendHeaders.removeAll { $0.hasName(header.name) }
            showHeaders.removeAll { $0.hasName(header.name) }
            sendHeaders.append(HTTPHeader(header.name, bindings.render(value)))
            let shown = CredentialHeaders.isCredential(header.name) ? Secrets.mask : bindings.display(value)
            showHeaders.append(HTTPHeader(header.name, shown))
        }
        let sendURL = url(bindings.render)
        let urlHasSecrets = pathParams.values.contains(where: secret) || query.contains { ($0.values ?? []).contains(where: secret) }
        let send = HTTPRequest(method: method.rawValue, url: sendURL, headers: sendHeaders, body: sendBody)
        let show = DisplayedRequest(
            method: method.rawValue, url: urlHasSecrets ? url(bindings.display) : sendURL, headers: showHeaders, body: showBody)
        return (send, show)
    }

    /// Whether a JSON body has an `${env:…}` placeholder in one of its strings.
    private static func mentionsEnvironment(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let string): string.contains("${env:")
        case .array(let elements): elements.contains(where: mentionsEnvironment)
        case .object(let object): object.members.contains { mentionsEnvironment($0.value) }
        default: false
        }
    }
}
