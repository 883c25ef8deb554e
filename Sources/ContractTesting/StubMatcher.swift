import ContractRequests
import Foundation

/// Finds the fixture for a request through the set's ``RouteTable`` (the routing the mock server
/// shares), and says why none matches as a ``ContractStubError``.
struct StubMatcher {
    let fixtures: [StubFixture]
    let routes: RouteTable
    let chosenCases: [String: String]

    struct Match {
        var fixture: StubFixture?
        /// Why no fixture answers, when none does.
        var mismatch: ContractStubError?
    }

    /// - Parameters:
    ///   - parts: the URL's path and query, read once for matching and checking.
    ///   - operationID: the operation the caller names (an OpenAPI client's), preferred over other
    ///     fixtures whose path and method also match.
    /// - Parameter preference: the case the request asks for in its `Prefer` header.
    func match(method: String, url: URL, parts: URLParts, operationID: String? = nil, preference: Preference? = nil) -> Match {
        let query = parts.query.map { Route.QueryItem(name: $0.name, value: $0.value) }
        switch routes.match(method: method, path: parts.path, query: query, shownURL: parts.shown, operationID: operationID, chosen: chosenCases, preference: preference) {
        case .route(let index):
            return Match(fixture: fixtures[index])
        case .unknownChosenCase(let contract, let caseName, let message, let reason):
            var mismatch = ContractStubError(.noMatchingFixture, message, contract: contract, caseName: caseName, method: method, url: url)
            mismatch.usageReason = reason
            return Match(mismatch: mismatch)
        case .none(let message, let nearest, let reason):
            let fixture = nearest.map { fixtures[$0] }
            var mismatch = ContractStubError(
                .noMatchingFixture, message, contract: fixture?.contract, caseName: fixture?.caseName, method: method, url: url,
                nearestFixture: fixture?.name)
            mismatch.usageReason = reason
            return Match(mismatch: mismatch)
        }
    }
}

/// A request URL's path (percent-encoded, as sent) and query items (decoded as a server reads a
/// form: `+` is a space), read once.
struct URLParts {
    var path: String
    var query: [URLQueryItem]
    /// The URL as messages show it: without its query and user info, which may hold a secret
    /// (`?api_key=…`); what differs in the query is said item by item, masked where it may.
    var shown: String

    init(_ url: URL) {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        path = components?.percentEncodedPath ?? url.path
        query = (components?.percentEncodedQueryItems ?? []).map { item in
            func decoded(_ text: String) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return URLQueryItem(name: decoded(item.name), value: item.value.map(decoded))
        }
        components?.query = nil
        components?.user = nil
        components?.password = nil
        shown = components?.string ?? path
    }
}
