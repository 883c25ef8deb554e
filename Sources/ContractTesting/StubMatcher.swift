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
    func match(method: String, url: URL, parts: URLParts, operationID: String? = nil) -> Match {
        let query = parts.query.map { Route.QueryItem(name: $0.name, value: $0.value) }
        switch routes.match(method: method, path: parts.path, query: query, shownURL: url.absoluteString, operationID: operationID, chosen: chosenCases) {
        case .route(let index):
            return Match(fixture: fixtures[index])
        case .unknownChosenCase(let contract, let caseName, let message):
            return Match(mismatch: ContractStubError(.noMatchingFixture, message, contract: contract, caseName: caseName, method: method, url: url))
        case .none(let message, let nearest):
            let fixture = nearest.map { fixtures[$0] }
            return Match(mismatch: ContractStubError(
                .noMatchingFixture, message, contract: fixture?.contract, caseName: fixture?.caseName, method: method, url: url,
                nearestFixture: fixture?.name))
        }
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
