import ContractHTTP
import ContractJSON
import ContractModel
import ContractRequests

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
    /// The request to send, and the one to show: they differ only where secrets are.
    typealias Built = (send: HTTPRequest, show: DisplayedRequest)

    let baseURL: String
    let extraHeaders: [HeaderField]
    /// Whether an extra header is shown otherwise than sent (a credential masked, an `${env:…}`
    /// value): worked out once, since it decides for every request whether the headers shown
    /// need an array of their own.
    private let extraHeadersDiffer: Bool

    init(baseURL: String, extraHeaders: [HeaderField]) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.extraHeaders = extraHeaders
        extraHeadersDiffer = extraHeaders.contains { header in
            header.value.map { $0.mentionsEnvironment || CredentialHeaders.isCredential(header.name) } ?? false
        }
    }

    /// The case's own request: the endpoint's headers and query with the case's merged over them;
    /// a case that follows a `url` sends its own query only (the link has the rest).
    /// - Throws: ``FollowedLink/Refusal`` when the case follows a link that is not followed.
    func build(_ contract: Contract, _ testCase: ContractCase, _ bindings: Bindings) throws(FollowedLink.Refusal) -> Built {
        let endpoint = contract.endpoint
        let request = testCase.request
        return try build(
            method: endpoint.method, path: endpoint.path, url: request.url, pathParams: request.pathParams,
            query: request.url == nil ? contract.query(for: testCase) : request.query, headers: contract.headers(for: testCase),
            body: request.body, bindings)
    }

    /// A setup step's request, which stands alone: nothing is inherited from the endpoint.
    /// - Throws: ``FollowedLink/Refusal`` when the step follows a link that is not followed.
    func build(_ step: SetupStep, _ bindings: Bindings) throws(FollowedLink.Refusal) -> Built {
        try build(method: step.method, path: step.path, url: step.request.url, pathParams: step.request.pathParams, query: step.request.query,
            headers: step.request.headers, body: step.request.body, bindings)
    }

    private func build(
        method: HTTPMethod, path: PathTemplate, url link: TemplateString?, pathParams: PathParameters, query: [QueryItem],
        headers: [HeaderField], body: RequestBody?, _ bindings: Bindings
    ) throws(FollowedLink.Refusal) -> Built {
        // What is shown differs from what is sent only where `${env:…}` appears; the rest is built once.
        func secret(_ template: TemplateString) -> Bool { template.mentionsEnvironment }
        var followed: (sent: String, shown: String)?
        if let link {
            // A link that is one captured value resolves against the request that gave it.
            var referrer: String?
            if let name = link.singleCapture { referrer = bindings.linkReferrers[name] }
            let sent = try FollowedLink.resolve(bindings.render(link), baseURL: baseURL, referrer: referrer).get()
            let shown = secret(link) ? (try? FollowedLink.resolve(bindings.display(link), baseURL: baseURL, referrer: referrer).get()) ?? Secrets.mask : sent
            followed = (sent, shown)
        }
        // Renders through `bindings` by name rather than taking `bindings.render` as a function:
        // that closure held a copy of every binding, made for each request.
        func render(_ template: TemplateString, shown: Bool) -> String {
            shown ? bindings.display(template) : bindings.render(template)
        }
        func url(shown: Bool) -> String {
            var text = baseURL
            if let followed {
                text = shown ? followed.shown : followed.sent
            } else {
                for segment in path.segments {
                    switch segment {
                    case .literal(let literal): text += literal
                    case .placeholder(let name): text += PercentEncoding.pathSegment(pathParams[name].map { render($0, shown: shown) } ?? "")
                    }
                }
            }
            let pairs = query.flatMap { item in (item.values ?? []).map { (item.name, render($0, shown: shown)) } }
            if !pairs.isEmpty {
                let separator = followed?.sent.contains("?") == true ? "&" : "?"
                text += separator + pairs.map { PercentEncoding.queryComponent($0.0) + "=" + PercentEncoding.queryComponent($0.1) }.joined(separator: "&")
            }
            return text
        }
        // A header refused is reported with the request's URL, as a sent request's would be.
        // Asked only of a value with placeholders (a literal is lint's to refuse), and only then
        // whether `--header` replaces it: nearly every header of every request is literal.
        func checked(_ value: String, of name: String, from template: TemplateString, replaced: @autoclosure () -> Bool) throws(FollowedLink.Refusal) -> String {
            guard template.literalText == nil, !replaced() else { return value }
            do {
                return try Self.carried(value, of: name, from: template)
            } catch {
                var refusal = error
                refusal.shownURL = url(shown: true)
                throw refusal
            }
        }
        var sendHeaders: [HTTPHeader] = []
        // The headers shown are those sent unless a value is shown otherwise (`${env:…}`, a
        // credential): nearly always, and then they share the array sent rather than make one
        // more per request.
        let headersDiffer = extraHeadersDiffer || headers.contains { $0.value.map(secret) ?? false }
        var showHeaders: [HTTPHeader] = []
        for field in headers {
            guard let value = field.value else { continue }
            // One `--header` replaces is never sent, so never refused either.
            let sent = HTTPHeader(field.name, try checked(bindings.render(value), of: field.name, from: value, replaced: replacedByExtraHeader(field.name)))
            sendHeaders.append(sent)
            if headersDiffer { showHeaders.append(secret(value) ? HTTPHeader(field.name, bindings.display(value)) : sent) }
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
                if headersDiffer { showHeaders.append(HTTPHeader("Content-Type", "application/json")) }
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
            sendHeaders.append(HTTPHeader(header.name, try checked(bindings.render(value), of: header.name, from: value, replaced: false)))
            guard headersDiffer else { continue }
            showHeaders.removeAll { $0.hasName(header.name) }
            let shown = CredentialHeaders.isCredential(header.name) ? Secrets.mask : bindings.display(value)
            showHeaders.append(HTTPHeader(header.name, shown))
        }
        if !headersDiffer { showHeaders = sendHeaders }
        let sendURL = url(shown: false)
        let urlHasSecrets = pathParams.values.contains(where: secret) || query.contains { ($0.values ?? []).contains(where: secret) }
            || link.map(secret) == true
        let send = HTTPRequest(method: method.rawValue, url: sendURL, headers: sendHeaders, body: sendBody)
        let show = DisplayedRequest(
            method: method.rawValue, url: urlHasSecrets ? url(shown: true) : sendURL, headers: showHeaders, body: showBody)
        return (send, show)
    }

    /// Whether a `--header` of the run replaces the contract's header `name`.
    private func replacedByExtraHeader(_ name: String) -> Bool {
        !extraHeaders.isEmpty && extraHeaders.contains { $0.value != nil && HTTPHeader($0.name, "").hasName(name) }
    }

    /// A header's value once its placeholders are filled, when a request can carry it. A value a
    /// server gave (`${capture:…}`) or the environment holds may have a line break, which would
    /// end the header there and start others of the server's choosing in the next request: such
    /// a request is not sent. The value is not shown: it may be a secret.
    private static func carried(_ value: String, of name: String, from template: TemplateString) throws(FollowedLink.Refusal) -> String {
        guard let bad = FieldSyntax.forbiddenCharacter(inValue: value) else { return value }
        var listed: Set<String> = []
        let placeholders = template.segments.compactMap { segment -> String? in
            switch segment {
            case .literal: nil
            case .env(let name): "${env:\(name)}"
            case .capture(let name): "${capture:\(name)}"
            case .unique(let name): "${unique:\(name)}"
            }
        }.filter { listed.insert($0).inserted }
        let code = String(bad.value, radix: 16, uppercase: true)
        let character = bad == "\r" || bad == "\n" ? "a line break" : "a control character (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
        throw FollowedLink.Refusal(
            message: "header '\(name)' would hold \(character) once \(placeholders.joined(separator: ", ")) \(placeholders.count == 1 ? "is" : "are") filled in, which no request may carry (the value is not shown)",
            part: "request-header")
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
