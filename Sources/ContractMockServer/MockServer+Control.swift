import ContractJSON
import ContractRequests

// The control API: the Swift API's calls over HTTP, under `/__contract`, for a UI test's set-up
// in another process and for clients that are not Swift.
//
//   GET    /__contract                         the contracts, their cases, what is chosen
//   POST   /__contract/use                     {"contract": "products.get", "case": "missing"}
//   POST   /__contract/inject                  {"contract"?, "status" | "delay" (seconds) |
//                                               "undecodableBody" | "dropConnection", "times"?}
//   DELETE /__contract/faults
//   POST   /__contract/allow-invalid-requests  {"contract"?, "case"?}
//   GET    /__contract/requests[?only=unmatched|invalid]
//   POST   /__contract/reset
extension MockServer {
    static let controlProblem = "urn:contract:problem:control"

    static let controlListing = """
        GET /__contract, POST /__contract/use, POST /__contract/inject, DELETE /__contract/faults, \
        POST /__contract/allow-invalid-requests, GET /__contract/requests, POST /__contract/reset
        """

    func control(_ request: MockRequest, path: String, rawQuery: Substring) -> MockReply {
        if let refusal = foreignCaller(request) {
            return .problem(403, RequestProblem.body(type: Self.controlProblem, title: "The control call is refused", status: 403, detail: refusal))
        }
        let endpoint = path.dropFirst(Self.controlPrefix.count).split(separator: "/").joined(separator: "/")
        do throws(MockServerError) {
            switch (request.method, endpoint) {
            case ("GET", ""): return .json(200, Self.write(overview))
            case ("POST", "use"):
                let body = try Self.object(request)
                let contract = try Self.string(body, "contract")
                if body["case"] == .null {
                    state.withLockedValue { _ = $0.chosen.removeValue(forKey: contract) }
                } else {
                    try use(contract, case: try Self.string(body, "case"))
                }
            case ("POST", "inject"):
                let body = try Self.object(request)
                let fault = try Self.fault(body)
                let times = try body["times"].map { value throws(MockServerError) -> Int in
                    guard let times = value.numberValue?.intValue else { throw Self.badRequest("'times' must be a whole number") }
                    return times
                }
                if let contract = body["contract"], contract != .null {
                    try inject(fault, for: try Self.string(body, "contract"), times: times)
                } else {
                    try inject(fault, times: times)
                }
            case ("DELETE", "faults"): removeFaults()
            case ("POST", "allow-invalid-requests"):
                let body = request.body?.isEmpty ?? true ? JSONObject() : try Self.object(request)
                // A member of the wrong type is refused, not read as absent: that would relax every contract.
                let contract = try Self.optionalString(body, "contract")
                let caseName = try Self.optionalString(body, "case")
                if contract == nil, caseName != nil { throw Self.badRequest("'case' needs its 'contract'") }
                switch (contract, caseName) {
                case (nil, _): allowInvalidRequests()
                case (let contract?, nil): try allowInvalidRequests(to: contract)
                case (let contract?, let name?): try allowInvalidRequests(to: contract, case: name)
                }
            case ("GET", "requests"):
                let only = Self.queryItems(rawQuery).first { $0.name == "only" }?.value
                if let only, only != "unmatched", only != "invalid" {
                    throw Self.badRequest("'only' is 'unmatched' or 'invalid', not '\(MessageText.clipped(only, to: 40))'")
                }
                return .json(200, Self.write(journal(only: only)))
            case ("POST", "reset"): reset()
            default:
                return .problem(404, RequestProblem.body(
                    type: Self.controlProblem, title: "No such control call", status: 404,
                    detail: "\(request.method) \(MessageText.clipped(path, to: 80)) is not a control call; they are: \(Self.controlListing)"))
            }
            return MockReply(status: 204, headers: [], body: [])
        } catch {
            let status = error.code == .unknownContract || error.code == .unknownCase || error.code == .noFixtures ? 404 : 400
            return .problem(status, RequestProblem.body(type: Self.controlProblem, title: "The control call cannot be done", status: status, detail: error.description))
        }
    }

    private var overview: JSONValue {
        let (set, chosen, faults, count) = state.withLockedValue { ($0.set, $0.chosen, $0.faults, $0.journal.count) }
        let contracts: [JSONValue] = set.contracts.map { contract in
            let cases = set.fixtures.filter { $0.contract == contract }
            let first = cases.first
            return .object(JSONObject([
                .init(key: "contract", value: .string(contract)), .init(key: "method", value: .string(first?.method ?? "")),
                .init(key: "path", value: .string(first?.pathTemplate ?? "")),
                .init(key: "cases", value: .array(cases.map { .object(JSONObject([.init(key: "case", value: .string($0.caseName)), .init(key: "status", value: .number(JSONNumber($0.status)))])) })),
                .init(key: "chosen", value: chosen[contract].map { .string($0) } ?? .null),
            ]))
        }
        return .object(JSONObject([
            .init(key: "contracts", value: .array(contracts)),
            .init(key: "faults", value: .array(faults.map { injected in
                .object(JSONObject([
                    .init(key: "contract", value: injected.contract.map { .string($0) } ?? .null), .init(key: "fault", value: .string(injected.fault.description)),
                    .init(key: "remaining", value: injected.remaining.map { .number(JSONNumber($0)) } ?? .null),
                ]))
            })),
            .init(key: "requests", value: .number(JSONNumber(count))),
        ]))
    }

    private func journal(only: String?) -> JSONValue {
        let (entries, dropped) = state.withLockedValue { (Array($0.journal.all), $0.journal.dropped) }
        let kept =
            switch only {
            case "unmatched": entries.filter { $0.mismatch != nil }
            case "invalid": entries.filter { !$0.violations.isEmpty }
            default: entries
            }
        return .object(JSONObject([
            .init(key: "requests", value: .array(kept.map(\.json))), .init(key: "dropped", value: .number(JSONNumber(dropped))),
            .init(key: "chosenCasesNotRequested", value: .array(chosenCasesNotRequested.map { .string($0) })),
        ]))
    }

    private static func fault(_ body: JSONObject) throws(MockServerError) -> MockFault {
        // A member that is null, or a flag that is false, is absent (a client that writes every
        // field writes the others so); a flag is `true` or refused, never read as set otherwise.
        let kinds = ["status", "delay", "undecodableBody", "dropConnection"].filter { body[$0] != nil && body[$0] != .null && body[$0] != .bool(false) }
        guard kinds.count == 1 else {
            throw badRequest("a fault is one of 'status' (a code), 'delay' (seconds), 'undecodableBody': true, 'dropConnection': true; found \(kinds.isEmpty ? "none" : kinds.joined(separator: " and "))")
        }
        switch kinds[0] {
        case "status":
            guard let code = body["status"]?.numberValue?.intValue else { throw badRequest("'status' must be a whole number") }
            return .status(code)
        case "delay":
            guard let seconds = body["delay"]?.numberValue?.doubleValue, seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                throw badRequest("'delay' must be a number of seconds from 0 to 3600")
            }
            return .delay(.nanoseconds(Int64(seconds * 1e9)))
        case "undecodableBody":
            guard body["undecodableBody"] == .bool(true) else { throw badRequest("'undecodableBody' must be true (leave it out for another fault)") }
            return .undecodableBody
        default:
            guard body["dropConnection"] == .bool(true) else { throw badRequest("'dropConnection' must be true (leave it out for another fault)") }
            return .dropConnection
        }
    }

    private static func object(_ request: MockRequest) throws(MockServerError) -> JSONObject {
        let bytes = request.body ?? []
        do {
            guard let object = try JSONParser(maxDepth: 16).parse(bytes).value.objectValue else { throw badRequest("the body must be a JSON object") }
            return object
        } catch let error as JSONSyntaxError {
            throw badRequest("the body is not JSON: \(error.message) at line \(error.location.line), column \(error.location.column)")
        } catch {
            throw badRequest("the body must be a JSON object")
        }
    }

    private static func string(_ object: JSONObject, _ key: String) throws(MockServerError) -> String {
        guard let value = object[key]?.stringValue else { throw badRequest("'\(key)' must be a string") }
        return value
    }

    /// The member's string; nil when it is absent or null.
    private static func optionalString(_ object: JSONObject, _ key: String) throws(MockServerError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw badRequest("'\(key)' must be a string") }
        return text
    }

    /// Why a control call comes from something other than a test on this machine, or nil. A web
    /// page the tester has open can send a POST without a preflight (`Content-Type: text/plain`),
    /// and one whose name its owner points at 127.0.0.1 (DNS rebinding) reads the answers as its
    /// own: the browser says who sent it in `Origin`, and the name it asked for in `Host`. A
    /// server listening on loopback takes control calls for a loopback name only, and, unless
    /// `--cors` allows pages, from no page of another site. A rebinding needs a domain name, so
    /// an address is taken as it is: an Android emulator reaches the host's loopback as 10.0.2.2.
    func foreignCaller(_ request: MockRequest) -> String? {
        if Self.isLoopback(options.host), let host = request.values(of: "Host").first {
            let name = Self.hostName(host)
            guard Self.isLoopback(name) || Self.isAddress(name) else {
                return "a control call must name this machine in Host (localhost or an address such as 127.0.0.1), not '\(MessageText.clipped(host, to: 80))'"
            }
        }
        if !options.cors, let origin = request.values(of: "Origin").first {
            let name = origin.split(separator: "://", maxSplits: 1).last.map { Self.hostName(String($0)) } ?? ""
            guard origin.contains("://"), Self.isLoopback(name) else {
                return "a control call from a web page of another site ('\(MessageText.clipped(origin, to: 80))') is refused; serve with --cors to allow pages"
            }
        }
        return nil
    }

    /// `localhost`, `127.x.x.x` and `::1`.
    static func isLoopback(_ name: String) -> Bool {
        let lower = name.lowercased()
        // `127.x.evil.example` is a domain name a rebinding page can use: an address is all digits.
        return lower == "localhost" || lower.hasSuffix(".localhost") || lower == "::1" || (lower.hasPrefix("127.") && isAddress(lower))
    }

    /// An IPv4 address (four decimal parts) or an IPv6 one (hexadecimal digits and colons).
    static func isAddress(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) { return true }
        return name.contains(":") && name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    /// The name of a `Host` value or an origin's authority: without a port, brackets or a path.
    static func hostName(_ authority: String) -> String {
        let authority = authority.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? authority
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    private static func badRequest(_ message: String) -> MockServerError {
        MockServerError(.invalidControlCall, message)
    }

    static func write(_ value: JSONValue) -> [UInt8] {
        Array(CanonicalJSONWriter(style: .compact, sortsKeys: false).string(value).utf8)
    }
}
