import Foundation

/// Finds the fixture for a request: same method, a path the template matches, then the case. A
/// case a test chose answers; else a case whose query items the request sends, a success case
/// first; else, when the endpoint describes those query parameters (their values are then held to
/// their schemas, not to one case's), its success case. When none matches, says which fixture came
/// nearest and why it did not.
struct StubMatcher {
    let fixtures: [StubFixture]
    let chosenCases: [String: String]

    struct Match {
        var fixture: StubFixture?
        /// Why no fixture answers, when none does.
        var mismatch: ContractStubError?
    }

    /// - Parameter operationID: the operation the caller names (an OpenAPI client's), preferred
    ///   over other fixtures whose path and method also match.
    func match(method: String, url: URL, operationID: String? = nil) -> Match {
        match(method: method, url: url, parts: URLParts(url), operationID: operationID)
    }

    /// - Parameter parts: the URL's path and query, read once for matching and checking.
    func match(method: String, url: URL, parts: URLParts, operationID: String? = nil) -> Match {
        let path = parts.path
        let query = parts.query
        let segments = Self.segments(path)
        var candidates: [StubFixture] = []
        var nearest: (score: Int, reason: String, fixture: StubFixture)? = nil
        for fixture in fixtures {
            let (score, reason) = Self.compare(fixture, method: method, segments: segments)
            if reason == nil {
                candidates.append(fixture)
            } else if let reason, score > (nearest?.score ?? -1) {
                nearest = (score, reason, fixture)
            }
        }
        // The operation the caller names is its contract, wherever the client's base URL puts the path.
        // `contract import openapi` makes ids of operationIds (`pets/get` is `pets-get`), so they
        // are also compared without punctuation or case.
        if let operationID {
            let named = fixtures.filter { $0.contract == operationID }
            let loose = named.isEmpty ? fixtures.filter { Self.loose($0.contract) == Self.loose(operationID) } : named
            if !loose.isEmpty { candidates = loose }
        }
        if let contract = candidates.first?.contract, let chosen = chosenCases[contract] {
            if let fixture = fixtures.first(where: { $0.contract == contract && $0.caseName == chosen }) {
                return Match(fixture: fixture)
            }
            return Match(mismatch: ContractStubError(
                .noMatchingFixture, "\(method) \(path): no case '\(chosen)' in \(contract) (use(_:case:) names a case of its fixtures)",
                contract: contract, caseName: chosen, method: method, url: url))
        }
        // Several cases of one endpoint: a success case answers unless a test chooses another.
        for ignoringDescribed in [false, true] {
            let sending = candidates.filter { Self.queryMismatch($0, query, ignoringDescribed: ignoringDescribed) == nil }
            if let fixture = sending.first(where: { (200..<300).contains($0.status) }) ?? sending.first {
                return Match(fixture: fixture)
            }
        }
        if let fixture = candidates.first, let reason = Self.queryMismatch(fixture, query, ignoringDescribed: true) {
            nearest = (0, reason, fixture)
        }
        guard let nearest else {
            return Match(mismatch: ContractStubError(.noMatchingFixture, "\(method) \(path): no fixtures loaded", method: method, url: url))
        }
        let fixture = nearest.fixture
        return Match(mismatch: ContractStubError(
            .noMatchingFixture,
            "\(method) \(url.absoluteString) matches no fixture; nearest is \(fixture.name) (\(fixture.method) \(fixture.pathTemplate)): \(nearest.reason)",
            contract: fixture.contract, caseName: fixture.caseName, method: method, url: url, nearestFixture: fixture.name))
    }

    /// How close a fixture's method and path are (higher is closer) and why they do not match, or
    /// nil when they do.
    static func compare(_ fixture: StubFixture, method: String, segments: [String]) -> (Int, String?) {
        let template = Self.segments(fixture.pathTemplate)
        var score = 0
        for (index, part) in template.enumerated() {
            guard index < segments.count else {
                return (score, "the path ends after /\(segments.joined(separator: "/")), the template goes on with '/\(part)'")
            }
            let isPlaceholder = part.hasPrefix("{") && part.hasSuffix("}")
            guard isPlaceholder || part == segments[index] else {
                return (score, "path segment \(index + 1) is '\(segments[index])', the template has '\(part)'")
            }
            score += 2
        }
        guard template.count == segments.count else {
            return (score, "the path has \(segments.count) segments, the template \(template.count)")
        }
        guard fixture.method == method.uppercased() else {
            return (score, "the method is \(method), the fixture's is \(fixture.method)")
        }
        return (score, nil)
    }

    /// Why the request does not send the fixture's query items, or nil when it does.
    /// - Parameter ignoringDescribed: items of parameters the endpoint describes with a schema
    ///   count as sent whatever their value: the request checks hold the value.
    static func queryMismatch(_ fixture: StubFixture, _ query: [URLQueryItem], ignoringDescribed: Bool) -> String? {
        for item in fixture.query where !query.contains(item) {
            if ignoringDescribed, fixture.endpoint.parameters.contains(where: { $0.location == .query && $0.name == item.name && $0.schema != nil }) {
                continue
            }
            let present = query.first { $0.name == item.name }
            return present.map { "query item '\(item.name)' is '\($0.value ?? "")', the fixture's is '\(item.value ?? "")'" }
                ?? "query item '\(item.name)=\(item.value ?? "")' is missing"
        }
        return nil
    }

    /// Letters and digits only, lowercased: `pets/get`, `pets-get` and `PetsGet` are one name.
    static func loose(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
    }

    static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

/// A request URL's path (percent-encoded, as sent) and query items (decoded), read once.
struct URLParts {
    var path: String
    var query: [URLQueryItem]

    init(_ url: URL) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        path = components?.percentEncodedPath ?? url.path
        query = components?.queryItems ?? []
    }
}
