import ContractJSON
import ContractRequests
import NIOHTTP1

// Answering: a request is routed as the stubs route it, checked as they check it, and answered
// with its fixture (after the faults a test injected), a 400 problem, or a 404 problem.
extension MockServer {
    /// Whether `request` is a control call (or a preflight), answered without checking a contract.
    func isControl(_ request: MockRequest) -> Bool {
        isControlPath(request.target) || request.method == "OPTIONS"
    }

    /// A target under the control API's prefix: never journaled, answered or refused.
    func isControlPath(_ target: String) -> Bool {
        let path = Self.split(target).path
        return path == Self.controlPrefix || path.hasPrefix(Self.controlPrefix + "/")
    }

    /// The answer to one request; the journal and ``onRequest`` learn of it.
    func respond(_ request: MockRequest) -> MockReply {
        let (path, rawQuery) = Self.split(request.target)
        // Before the control API: a page's call to it with a JSON body, or a DELETE, is preflighted too.
        if options.cors, request.method == "OPTIONS", !request.values(of: "Access-Control-Request-Method").isEmpty {
            return preflight(request)
        }
        if path == Self.controlPrefix || path.hasPrefix(Self.controlPrefix + "/") {
            return withCORS(control(request, path: path, rawQuery: rawQuery), request)
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
        var reply: MockReply
        switch match {
        case .route(let index):
            let fixtureAnswers: Bool
            (reply, fixtureAnswers) = answer(request, path: path, query: query, fixture: index, of: set, preference: preference, received: &received)
            if let usage {
                let fixture = set.fixtures[index]
                usage.record(UsageRecord(
                    contract: fixture.contract, caseName: fixture.caseName, outcome: received.violations.isEmpty ? .answered : .invalid,
                    relaxed: received.answeredAnyway, test: Self.testName(request), method: request.method, path: path,
                    violations: UsageRecord.violations(received.violations)))
            }
            // The faults (for the fixture's answers, not a problem) are taken, and the request
            // journaled, in one turn of the lock.
            let contract = fixtureAnswers ? set.fixtures[index].contract : nil
            for fault in record(&received, takingFaultsFor: contract, answered: reply.status) {
                switch fault.base {
                case .status(let code): reply.status = code
                case .delay(let duration): reply.delay = duration
                case .undecodableBody: reply.replaceBody(MockFault.undecodableBytes)
                case .dropConnection: reply.dropsConnection = true
                }
            }
            return withCORS(reply, request)
        case .unknownChosenCase(let contract, _, let message, let reason):
            received.mismatch = message
            usage?.record(UsageRecord(
                contract: contract, caseName: nil, outcome: .unmatched, test: Self.testName(request), method: request.method, path: path, reason: reason))
            reply = .problem(404, RequestProblem.body(type: RequestProblem.unmatchedRequestType, title: "No case of that name", status: 404, detail: message))
        case .none(let message, let nearest, let reason):
            received.mismatch = message
            let nearestRoute = nearest.map { set.routes.routes[$0] }
            usage?.record(UsageRecord(
                contract: nearestRoute?.contract, caseName: nil, outcome: .unmatched, test: Self.testName(request), method: request.method, path: path,
                nearest: nearestRoute?.name, reason: reason))
            var members: [JSONObject.Member] = []
            if let nearest {
                let route = set.routes.routes[nearest]
                members.append(.init(key: "nearest", value: .string(route.name)))
                members.append(.init(key: "nearestRoute", value: .string("\(route.method) \(route.pathTemplate)")))
            }
            reply = .problem(
                404, RequestProblem.body(type: RequestProblem.unmatchedRequestType, title: "No contract describes this request", status: 404, detail: message, members: members))
        }
        record(&received, takingFaultsFor: nil, answered: reply.status)
        return withCORS(reply, request)
    }

    /// The request header a client names its test with, for usage records (a UI test sends
    /// `Contract-Test: LoginUITests/testSignIn` with the app's requests); the only header recorded.
    public static let testNameHeader = "Contract-Test"

    /// The test the request names in ``testNameHeader``, nil when it names none.
    static func testName(_ request: MockRequest) -> String? {
        guard let value = request.values(of: testNameHeader).first else { return nil }
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let trimmed = value.drop(while: blank).reversed().drop(while: blank).reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// The answer to a request whose body is over ``Options/maxBodyBytes``: a 413 problem, journaled.
    func refuse(method: String, target: String, headers: HTTPHeaders, size: Int) -> MockReply {
        refused(
            status: 413, type: "urn:contract:problem:body-too-large", title: "The request's body is too large",
            detail: "the request's body is \(size) bytes or more, over this server's limit of \(options.maxBodyBytes) (--max-body-bytes)",
            method: method, target: target, headers: headers, size: size)
    }

    /// The answer to a request the server has no room for now (``Options/maxBodiesBytes``,
    /// ``Options/maxChecks``): a 503 problem, journaled and logged as any other answer, so a
    /// test that got it can see why.
    /// - Parameter what: what the server holds already, as the problem says it.
    /// - Parameter size: the body's bytes received so far.
    func refuseBusy(method: String, target: String, headers: HTTPHeaders, size: Int, what: String) -> MockReply {
        refused(
            status: 503, type: "urn:contract:problem:busy", title: "The server is busy",
            detail: "the server holds \(what) being received or answered already; try again", method: method, target: target, headers: headers, size: size)
    }

    /// A request refused before any contract is asked: its problem, journaled with `detail` as
    /// its mismatch, and readable by the page that sent it (`--cors`), as any other answer. A
    /// control call is never journaled, refused or not (an OPTIONS to a contract's path is the
    /// app's own request, journaled as any).
    private func refused(
        status: Int, type: String, title: String, detail: String, method: String, target: String, headers: HTTPHeaders, size: Int
    ) -> MockReply {
        if !isControlPath(target) {
            let (path, rawQuery) = Self.split(target)
            var received = Received(
                sequence: 0, method: method, path: path, query: Self.queryItems(rawQuery),
                headers: headers.map { WireRequest.Field(name: $0.name, value: $0.value) }, body: nil, bodyByteCount: size, status: status, mismatch: detail)
            record(&received, takingFaultsFor: nil, answered: status)
        }
        let problem = MockReply.problem(status, RequestProblem.body(type: type, title: title, status: status, detail: detail))
        return withCORS(problem, MockRequest(method: method, target: target, headers: headers, body: nil))
    }

    /// The fixture's answer, or a 400 problem when the request breaks its contract.
    /// - Returns: the reply, and whether it is the fixture's answer (which faults apply to).
    private func answer(
        _ request: MockRequest, path: String, query: [WireRequest.Field], fixture index: Int, of set: ServedSet, preference: Preference?, received: inout Received
    ) -> (MockReply, fixtureAnswers: Bool) {
        let fixture = set.fixtures[index]
        received.fixture = fixture.name
        // A 1xx is an interim answer: sent as the answer, the connection would be left waiting.
        guard MockReply.isFinal(fixture.status) else {
            received.mismatch = "the fixture \(fixture.name) answers \(fixture.status), an interim status HTTP/1.1 cannot send as an answer"
            return (.problem(500, RequestProblem.body(
                type: "urn:contract:problem:fixture-broken", title: "The fixture cannot be served", status: 500, detail: received.mismatch ?? "")), false)
        }
        switch set.checker(for: index) {
        case .failure(let error):
            received.mismatch = "the fixture \(fixture.name) cannot check requests: its endpoint's schemas do not compile (\(error))"
            return (.problem(500, RequestProblem.body(
                type: "urn:contract:problem:fixture-broken", title: "The fixture cannot check requests", status: 500, detail: received.mismatch ?? "")), false)
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
                return (.problem(400, RequestProblem.invalidRequest(
                    method: request.method, path: path, contract: fixture.contract, caseName: fixture.caseName, violations: received.violations)), false)
            }
            received.answeredAnyway = true
        }
        let prepared = set.answers[index]
        var reply = MockReply(status: fixture.status, prepared: prepared.headers, body: prepared.body)
        if received.answeredAnyway { reply.headers.add(name: "Contract-Violations", value: String(received.violations.count)) }
        return (reply, true)
    }

    /// Journals the request, with the faults that apply to an answer of `contract` (nil: none
    /// does) counted down; returns those faults, for the reply to take.
    @discardableResult
    private func record(_ received: inout Received, takingFaultsFor contract: String?, answered status: Int) -> [MockFault] {
        let (faults, entry) = state.withLockedValue { state in
            var taken: [MockFault] = []
            if let contract, !state.faults.isEmpty {
                for index in state.faults.indices where state.faults[index].contract == nil || state.faults[index].contract == contract {
                    taken.append(state.faults[index].fault)
                    state.faults[index].remaining = state.faults[index].remaining.map { $0 - 1 }
                }
                state.faults.removeAll { $0.remaining == 0 }
            }
            received.faults = taken.map(\.description)
            received.status = status
            for fault in taken {
                switch fault.base {
                case .status(let code): received.status = received.status.map { _ in code }
                case .dropConnection: received.status = nil
                case .delay, .undecodableBody: break
                }
            }
            state.sequence += 1
            received.sequence = state.sequence
            state.journal.append(received)
            return (taken, received)
        }
        announce(entry)
        return faults
    }

    // MARK: CORS

    /// A browser's preflight: every method and header it asks for is allowed, for its origin.
    private func preflight(_ request: MockRequest) -> MockReply {
        var headers = [("Access-Control-Allow-Methods", request.values(of: "Access-Control-Request-Method").joined(separator: ", "))]
        let asked = request.values(of: "Access-Control-Request-Headers")
        if !asked.isEmpty { headers.append(("Access-Control-Allow-Headers", asked.joined(separator: ", "))) }
        headers.append(("Access-Control-Max-Age", "600"))
        return withCORS(MockReply(status: 204, headers: headers, body: []), request)
    }

    /// With `--cors`, a request from a browser page (`Origin`) may read the answer, with
    /// credentials, and every header of it.
    private func withCORS(_ reply: MockReply, _ request: MockRequest) -> MockReply {
        guard options.cors, let origin = request.values(of: "Origin").first else { return reply }
        var reply = reply
        let exposed = reply.headers.map(\.name).filter { !$0.lowercased().hasPrefix("access-control-") && $0.lowercased() != "content-length" }
        reply.headers.add(name: "Access-Control-Allow-Origin", value: origin)
        reply.headers.add(name: "Access-Control-Allow-Credentials", value: "true")
        reply.headers.add(name: "Vary", value: "Origin")
        if !exposed.isEmpty { reply.headers.add(name: "Access-Control-Expose-Headers", value: exposed.joined(separator: ", ")) }
        return reply
    }

    // MARK: The target

    /// `/a/b?x=1` as its path (`/a/b`) and its raw query (`x=1`); a fragment is never sent, but
    /// one that is does not reach the path.
    static func split(_ target: String) -> (path: String, query: Substring) {
        let target = originForm(target)
        let bytes = target.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        guard let mark = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) else { return (String(target[..<end]), "") }
        return (String(target[..<mark]), target[target.utf8.index(after: mark)..<end])
    }

    /// `http://host:8080/a/b?x=1` as `/a/b?x=1`: the absolute form a client sends through a
    /// proxy, which a server must take as well (RFC 9112 §3.2.2); any other target as it is.
    static func originForm(_ target: String) -> String {
        let scheme = target.utf8.prefix(8).map { $0 | 0x20 }
        let length = scheme.starts(with: "http://".utf8) ? 7 : scheme.starts(with: "https://".utf8) ? 8 : 0
        guard length > 0 else { return target }
        let rest = target.utf8.dropFirst(length)
        guard let start = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else { return "/" }
        let form = String(target[start...])
        return form.hasPrefix("/") ? form : "/" + form
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
