import ContractRequests
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Serving: how a stub answers the requests its protocol (or a transport) hands it.
extension ContractStub {
    /// What a stub answers a request with: a response (after a delay, with a fault), or an error.
    @_spi(Transport) public enum Answer {
        case response(HTTPURLResponse, Data?, delay: Duration?)
        case failure(Error)
    }

    /// - Parameter isUpload: the request is an upload task's, whose body `URLSession` does not
    ///   hand a protocol: an absent body is then not checked, rather than called missing.
    func answer(_ request: URLRequest, isUpload: Bool = false) -> Answer {
        guard let url = request.url else { return .failure(URLError(.badURL)) }
        // The session's own headers (`httpAdditionalHeaders`) never reach a protocol: they are
        // the stub's copy, under the request's.
        var headers = request.allHTTPHeaderFields ?? [:]
        let sent = Set(headers.keys.map { $0.lowercased() })
        for (name, value) in sessionHeaders where !sent.contains(name.lowercased()) { headers[name] = value }
        let body = request.httpBody ?? request.httpBodyStream.map(Self.read)
        return answer(method: request.httpMethod ?? "GET", url: url, headers: headers, body: body, bodyIsUnseen: isUpload && body == nil)
    }

    /// The answer to a request, for `URLSession` (through the stub's protocol) and for other
    /// transports (the OpenAPI client transport): the same matching, chosen cases, faults and
    /// recorded requests. `operationID`, when the caller knows it, picks that contract's fixtures
    /// (contracts imported from an OpenAPI document are named by their operation).
    @_spi(Transport) public func answer(
        method: String, url: URL, headers: [String: String], body: Data?, operationID: String? = nil, bodyIsUnseen: Bool = false
    ) -> Answer {
        let (chosen, faultList) = lockedState()
        let parts = URLParts(url)
        // A request may pick its own answer (`Prefer: case=missing`, `code=404`), as with the mock server.
        let preference = Preference(headers: headers.filter { $0.key.lowercased() == "prefer" }.map(\.value))
        let match = StubMatcher(fixtures: fixtures, routes: routes, chosenCases: chosen).match(
            method: method, url: url, parts: parts, operationID: operationID, preference: preference)
        guard let fixture = match.fixture else {
            // A URLError, as URLSession and its callers expect of a failed load; the explanation
            // is its description, and the structured reason its underlying error (kept as the
            // Swift value, so `as? ContractStubError` reads it back on every platform).
            let mismatch = match.mismatch ?? ContractStubError(.noMatchingFixture, "\(method) \(url.absoluteString) matches no fixture", url: url)
            record(Received(method: method, url: url, headers: headers, body: body, fixture: nil, mismatch: mismatch))
            let relaxed = isRelaxed(for: nil)
            if let usage {
                recordUsage(UsageRecord(
                    contract: mismatch.contract, caseName: nil, outcome: .unmatched, relaxed: relaxed, test: nil, method: method, path: parts.path,
                    nearest: mismatch.nearestFixture, reason: mismatch.usageReason ?? "no fixture matches it"), to: usage)
            }
            if !relaxed { fail(mismatch.description + Self.relaxing(nil)) }
            return .failure(URLError(.resourceUnavailable, userInfo: [
                NSLocalizedDescriptionKey: mismatch.description, NSUnderlyingErrorKey: mismatch, NSURLErrorFailingURLErrorKey: url,
            ]))
        }
        let violations = check(method: method, parts: parts, headers: headers, body: body, bodyIsUnseen: bodyIsUnseen, against: fixture)
        record(Received(method: method, url: url, headers: headers, body: body, fixture: fixture.name, mismatch: nil, violations: violations))
        // Let through on purpose: the test allows it, or the request asks for a refusal.
        let relaxed = !violations.isEmpty && (isRelaxed(for: fixture) || preference?.allowsInvalidRequest(answeredWith: fixture.status) == true)
        if let usage {
            recordUsage(UsageRecord(
                contract: fixture.contract, caseName: fixture.caseName, outcome: violations.isEmpty ? .answered : .invalid, relaxed: relaxed, test: nil,
                method: method, path: parts.path,
                violations: UsageRecord.violations(violations)),
                to: usage)
        }
        if !violations.isEmpty, !relaxed {
            let path = parts.path
            fail(
                "\(method) \(path) breaks its contract \(fixture.contract) (answered with a 400 problem, not \(fixture.name)):\n"
                    + violations.map { "  \($0)" }.joined(separator: "\n") + Self.relaxing(fixture))
            let problem = RequestProblem.invalidRequest(
                method: method, path: path, contract: fixture.contract, caseName: fixture.caseName, violations: violations)
            guard let response = HTTPURLResponse(url: url, statusCode: 400, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": RequestProblem.contentType]) else {
                return .failure(URLError(.cannotParseResponse))
            }
            return .response(response, Data(problem), delay: nil)
        }
        var status = fixture.status
        var data = fixture.body
        var delay: Duration? = nil
        for (contract, fault) in faultList where contract == nil || contract == fixture.contract {
            switch fault.base {
            case .status(let code): status = code
            case .error(let code): return .failure(URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url]))
            case .delay(let duration): delay = duration
            case .undecodableBody: data = Data("{\"truncated\": ".utf8)
            }
        }
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fixture.headers) else {
            return .failure(URLError(.cannotParseResponse))
        }
        return .response(response, data, delay: delay)
    }

    /// Records a request for `contract coverage`, with the test that sent it.
    private func recordUsage(_ record: UsageRecord, to recorder: UsageRecorder) {
        RunningTest.write(record, to: recorder, stubMadeIn: usageMadeInTest, makerIsSwiftTesting: madeInSwiftTesting)
    }

    /// How the request breaks the endpoint's description; a fixture whose schemas do not compile
    /// (edited by hand) fails the test once per request, saying so, and checks nothing.
    private func check(
        method: String, parts: URLParts, headers: [String: String], body: Data?, bodyIsUnseen: Bool, against fixture: StubFixture
    ) -> [RequestViolation] {
        switch fixture.check.checker {
        case .failure(let error):
            fail("the fixture \(fixture.name) cannot check requests: its endpoint's schemas do not compile (\(error)); run 'contract fixtures' again")
            return []
        case .success(let checker):
            guard !checker.checksNothing else { return [] }
            let request = WireRequest(
                method: method, path: parts.path, query: parts.query.map { WireRequest.Field(name: $0.name, value: $0.value ?? "") },
                headers: headers.map { WireRequest.Field(name: $0.key, value: $0.value) }, body: body.map { Array($0) }, bodyIsUnseen: bodyIsUnseen)
            return checker.check(request)
        }
    }

    /// How a test that sends a bad request on purpose says so.
    /// A request a negative case answers (one whose fixture refuses it) is relaxed for that case.
    private static func relaxing(_ fixture: StubFixture?) -> String {
        let call: String
        if let fixture, (400..<500).contains(fixture.status) {
            call = "stub.allowInvalidRequests(to: \(fixture.contract.debugDescription), case: \(fixture.caseName.debugDescription))"
        } else {
            call = fixture.map { "stub.allowInvalidRequests(to: \($0.contract.debugDescription))" } ?? "stub.allowInvalidRequests()"
        }
        return "\n(a test that sends it on purpose says so with \(call))"
    }

    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
