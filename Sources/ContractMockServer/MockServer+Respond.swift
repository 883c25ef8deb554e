import ContractJSON
import ContractRequests

// Answering: a request is routed as the stubs route it, checked as they check it, and answered
// with its fixture (after the faults a test injected), a 400 problem, or a 404 problem.
extension MockServer {
    /// Headers the server writes itself: a fixture's own values would contradict the body sent.
    static let framingHeaders: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// The answer to one request; the journal and ``onRequest`` learn of it.
    func respond(_ request: MockRequest) -> MockReply {
        let (path, rawQuery) = Self.split(request.target)
        if path == Self.controlPrefix || path.hasPrefix(Self.controlPrefix + "/") {
            return withCORS(control(request, path: path, rawQuery: rawQuery), request)
        }
        if options.cors, request.method == "OPTIONS", !request.values(of: "Access-Control-Request-Method").isEmpty {
            return preflight(request)
        }
        let query = Self.queryItems(rawQuery)
        let (set, chosen) = state.withLockedValue { ($0.set, $0.chosen) }
        let preference = Preference(headers: request.values(of: "Prefer"))
        let match = set.routes.match(
            method: request.method, path: path, query: query.map { Route.QueryItem(name: $0.name, value: $0.value) }, shownURL: path,
            chosen: chosen, preference: preference)
        var received = Received(
            sequence: 0, method: request.method, path: path, query: query, headers: request.headers.map { WireRequest.Field(name: $0.name, value: $0.value) },
            body: request.body.map { Array($0.prefix(options.journalBodyLimit)) }, bodyByteCount: request.body?.count ?? 0)
        let reply: MockReply
        switch match {
        case .route(let index):
            reply = answer(request, path: path, query: query, fixture: index, of: set, preference: preference, received: &received)
        case .unknownChosenCase(_, _, let message):
            received.mismatch = message
            reply = .problem(404, RequestProblem.body(type: RequestProblem.unmatchedRequestType, title: "No case of that name", status: 404, detail: message))
        case .none(let message, let nearest):
            received.mismatch = message
            var members: [JSONObject.Member] = []
            if let nearest {
                let route = set.routes.routes[nearest]
                members.append(.init(key: "nearest", value: .string(route.name)))
                members.append(.init(key: "nearestRoute", value: .string("\(route.method) \(route.pathTemplate)")))
            }
            reply = .problem(
                404, RequestProblem.body(type: RequestProblem.unmatchedRequestType, title: "No contract describes this request", status: 404, detail: message, members: members))
        }
        received.status = reply.dropsConnection ? nil : reply.status
        record(&received)
        return withCORS(reply, request)
    }

    /// The answer to a request whose body is over ``Options/maxBodyBytes``: a 413 problem, journaled.
    func refuse(method: String, target: String, headers: [(name: String, value: String)], size: Int) -> MockReply {
        let (path, rawQuery) = Self.split(target)
        let detail = "the request's body is \(size) bytes or more, over this server's limit of \(options.maxBodyBytes) (--max-body-bytes)"
        var received = Received(
            sequence: 0, method: method, path: path, query: Self.queryItems(rawQuery), headers: headers.map { WireRequest.Field(name: $0.name, value: $0.value) },
            body: nil, bodyByteCount: size, status: 413, mismatch: detail)
        record(&received)
        return .problem(413, RequestProblem.body(type: "urn:contract:problem:body-too-large", title: "The request's body is too large", status: 413, detail: detail))
    }

    /// The fixture's answer, or a 400 problem when the request breaks its contract.
    private func answer(
        _ request: MockRequest, path: String, query: [WireRequest.Field], fixture index: Int, of set: ServedSet, preference: Preference?, received: inout Received
    ) -> MockReply {
        let fixture = set.fixtures[index]
        received.fixture = fixture.name
        switch set.checker(for: index) {
        case .failure(let error):
            received.mismatch = "the fixture \(fixture.name) cannot check requests: its endpoint's schemas do not compile (\(error))"
            return .problem(500, RequestProblem.body(
                type: "urn:contract:problem:fixture-broken", title: "The fixture cannot check requests", status: 500, detail: received.mismatch ?? ""))
        case .success(let checker):
            if !checker.checksNothing {
                let wire = WireRequest(method: request.method, path: path, query: query, headers: received.headers, body: request.body)
                received.violations = checker.check(wire)
            }
        }
        if !received.violations.isEmpty {
            let relaxed = options.lenient || preference?.allowsInvalidRequest(answeredWith: fixture.status) == true || state.withLockedValue { state in
                state.allowsEveryInvalidRequest || state.relaxed.contains(fixture.contract) || state.relaxed.contains(fixture.name)
            }
            guard relaxed else {
                return .problem(400, RequestProblem.invalidRequest(
                    method: request.method, path: path, contract: fixture.contract, caseName: fixture.caseName, violations: received.violations))
            }
            received.answeredAnyway = true
        }
        var reply = MockReply(
            status: fixture.status, headers: fixture.headers.filter { !Self.framingHeaders.contains($0.name.lowercased()) }.map { ($0.name, $0.value) },
            body: fixture.body ?? [])
        reply.headers.append(("Contract-Case", fixture.name))
        if received.answeredAnyway { reply.headers.append(("Contract-Violations", "\(received.violations.count)")) }
        for fault in takeFaults(for: fixture.contract) {
            received.faults.append(fault.description)
            switch fault.base {
            case .status(let code): reply.status = code
            case .delay(let duration): reply.delay = duration
            case .undecodableBody: reply.body = MockFault.undecodableBytes
            case .dropConnection: reply.dropsConnection = true
            }
        }
        return reply
    }

    /// The faults that apply to an answer of `contract`, counted down.
    private func takeFaults(for contract: String) -> [MockFault] {
        state.withLockedValue { state in
            var taken: [MockFault] = []
            for index in state.faults.indices where state.faults[index].contract == nil || state.faults[index].contract == contract {
                taken.append(state.faults[index].fault)
                state.faults[index].remaining = state.faults[index].remaining.map { $0 - 1 }
            }
            state.faults.removeAll { $0.remaining == 0 }
            return taken
        }
    }

    private func record(_ received: inout Received) {
        let entry = state.withLockedValue { state in
            state.sequence += 1
            received.sequence = state.sequence
            state.journal.append(received)
            return received
        }
        announce(entry)
    }

    // MARK: CORS

    /// A browser's preflight: every method and header it asks for is allowed, for its origin.
    private func preflight(_ request: MockRequest) -> MockReply {
        var reply = MockReply(status: 204, headers: [], body: [])
        reply.headers.append(("Access-Control-Allow-Methods", request.values(of: "Access-Control-Request-Method").joined(separator: ", ")))
        let headers = request.values(of: "Access-Control-Request-Headers")
        if !headers.isEmpty { reply.headers.append(("Access-Control-Allow-Headers", headers.joined(separator: ", "))) }
        reply.headers.append(("Access-Control-Max-Age", "600"))
        return withCORS(reply, request)
    }

    /// With `--cors`, a request from a browser page (`Origin`) may read the answer, with
    /// credentials, and every header of it.
    private func withCORS(_ reply: MockReply, _ request: MockRequest) -> MockReply {
        guard options.cors, let origin = request.values(of: "Origin").first else { return reply }
        var reply = reply
        reply.headers.append(("Access-Control-Allow-Origin", origin))
        reply.headers.append(("Access-Control-Allow-Credentials", "true"))
        reply.headers.append(("Vary", "Origin"))
        let exposed = reply.headers.map(\.name).filter { !$0.lowercased().hasPrefix("access-control-") && $0.lowercased() != "vary" }
        if !exposed.isEmpty { reply.headers.append(("Access-Control-Expose-Headers", exposed.joined(separator: ", "))) }
        return reply
    }

    // MARK: The target

    /// `/a/b?x=1` as its path (`/a/b`) and its raw query (`x=1`); a fragment is never sent, but
    /// one that is does not reach the path.
    static func split(_ target: String) -> (path: String, query: Substring) {
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? parts[1] : "")
    }

    /// The query's items, decoded as a server reads a form: `+` is a space; an item whose
    /// escapes are malformed is kept as sent.
    static func queryItems(_ query: Substring) -> [WireRequest.Field] {
        guard !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = String(text.map { $0 == "+" ? " " : $0 })
                return PercentEncoding.decoded(spaced) ?? spaced
            }
            return WireRequest.Field(name: decoded(pair[0]), value: pair.count > 1 ? decoded(pair[1]) : "")
        }
    }
}
