import ContractRequests
import Testing

/// Routing a request to a case, the one way the stubs and the mock server do it.
struct RouteTableTests {
    static func route(_ contract: String, _ caseName: String, _ method: String, _ template: String, query: [(String, String)] = [], status: Int = 200,
        described: Set<String> = []) -> Route {
        Route(contract: contract, caseName: caseName, method: method, pathTemplate: template,
            query: query.map { Route.QueryItem(name: $0.0, value: $0.1) }, status: status, describedQuery: described)
    }

    static let table = RouteTable([
        route("items.get", "missing", "GET", "/items/{id}", status: 404),
        route("items.get", "found", "GET", "/items/{id}"),
        route("items.list", "second", "GET", "/items", query: [("page", "2")], described: ["page"]),
        route("items.list", "first", "GET", "/items", query: [("page", "1")], described: ["page"]),
        route("items.search", "hit", "GET", "/search", query: [("q", "pen")]),
    ])

    func match(_ method: String, _ path: String, _ query: [(String, String)] = [], chosen: [String: String] = [:]) -> RouteTable.Match {
        Self.table.match(method: method, path: path, query: query.map { Route.QueryItem(name: $0.0, value: $0.1) }, shownURL: path, chosen: chosen)
    }

    @Test func aSuccessCaseAnswersUnlessOneIsChosen() {
        #expect(match("GET", "/items/7") == .route(1))
        #expect(match("GET", "/items/7", chosen: ["items.get": "missing"]) == .route(0))
        guard case .unknownChosenCase(let contract, let caseName, _, _) = match("GET", "/items/7", chosen: ["items.get": "gone"]) else {
            Issue.record("expected the unknown chosen case to be named")
            return
        }
        #expect(contract == "items.get" && caseName == "gone")
    }

    /// The case whose query the request sends answers; a value of a described parameter that no
    /// case sends still routes (its schema holds it), an undescribed one does not.
    @Test func theQueryPicksTheCaseAndDescribedParametersRouteAnyValue() {
        #expect(match("GET", "/items", [("page", "2")]) == .route(2))
        #expect(match("GET", "/items", [("page", "9")]) == .route(2))
        #expect(match("GET", "/search", [("q", "pen")]) == .route(4))
        #expect(match("GET", "/search", [("q", "ink")]) == .none(
            message: "GET /search matches no fixture; nearest is items.search/hit (GET /search): query item 'q' is 'ink', the fixture's is 'pen'", nearest: 4,
            reason: "query item 'q' differs from the fixture's ('pen')"))
        #expect(match("GET", "/search") == .none(
            message: "GET /search matches no fixture; nearest is items.search/hit (GET /search): query item 'q=pen' is missing", nearest: 4,
            reason: "query item 'q=pen' is missing"))
    }

    @Test func noMatchNamesTheNearestRouteAndWhy() {
        #expect(match("DELETE", "/items/7") == .none(
            message: "DELETE /items/7 matches no fixture; nearest is items.get/missing (GET /items/{id}): the method is DELETE, the fixture's is GET", nearest: 0,
            reason: "the method is DELETE, the fixture's is GET"))
        #expect(match("GET", "/items/7/parts") == .none(
            message: "GET /items/7/parts matches no fixture; nearest is items.get/missing (GET /items/{id}): the path has 3 segments, the template 2", nearest: 0,
            reason: "the path has 3 segments, the template 2"))
        // The nearest is the one most of whose path matches, from the start or from the end.
        #expect(match("GET", "/items/7/parts/9") == .none(
            message: "GET /items/7/parts/9 matches no fixture; nearest is items.get/missing (GET /items/{id}): the path has 4 segments, the template 2", nearest: 0,
            reason: "the path has 4 segments, the template 2"))
        #expect(match("GET", "/v2/items/7") == .none(
            message: "GET /v2/items/7 matches no fixture; nearest is items.get/missing (GET /items/{id}): the path has '/v2' before the template's /items/{id} (a base URL with a path of its own?)",
            nearest: 0, reason: "the path has '/v2' before the template's /items/{id} (a base URL with a path of its own?)"))
        #expect(RouteTable([]).match(method: "GET", path: "/", query: [], shownURL: "/") == .none(
            message: "GET /: no fixtures loaded", nearest: nil, reason: "no fixtures loaded"))
    }

    /// An OpenAPI client names its operation: that contract answers wherever the base URL puts the
    /// path, its id compared without punctuation or case.
    @Test func theOperationNamedPicksItsContract() {
        #expect(Self.table.match(method: "GET", path: "/v1/items", query: [], shownURL: "/v1/items", operationID: "ItemsGet") == .route(1))
    }

    /// A request picks its own answer with `Prefer` (RFC 7240): `case=` or Prism's `example=` by
    /// name, `code=` by status, over a case a test chose; one no case has is named with the cases.
    @Test func aPreferHeaderPicksTheCase() throws {
        func prefer(_ value: String, chosen: [String: String] = [:]) throws -> RouteTable.Match {
            let preference = try #require(Preference(headers: [value]))
            return Self.table.match(method: "GET", path: "/items/7", query: [], shownURL: "/items/7", chosen: chosen, preference: preference)
        }
        #expect(try prefer("case=missing") == .route(0))
        #expect(try prefer(#"example="missing""#) == .route(0))
        #expect(try prefer("code=404") == .route(0))
        #expect(try prefer("return=minimal, code=200; strict", chosen: ["items.get": "missing"]) == .route(1))
        #expect(try prefer("code=500") == .unknownChosenCase(
            contract: "items.get", caseName: "500", message: "GET /items/7: Prefer asks for status 500, which no case of items.get has (its cases: missing (404), found (200))",
            reason: "its Prefer header asks for a case items.get does not have (its cases: missing (404), found (200))"))
        #expect(Preference(headers: ["return=minimal", "respond-async"]) == nil)
    }
}
