/// One case's answer as a route: the request it stands for (method, path template, the query
/// items its case sends) and the status it answers with.
public struct Route: Sendable, Hashable {
    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public var contract: String
    public var caseName: String
    public var method: String
    /// `/api/products/{id}`.
    public var pathTemplate: String
    /// The query items the case sends.
    public var query: [QueryItem]
    public var status: Int
    /// Query parameters the endpoint describes with a schema: any value of theirs routes here,
    /// and the request checks hold it, not one case's value.
    public var describedQuery: Set<String>
    let segments: [String]

    public init(contract: String, caseName: String, method: String, pathTemplate: String, query: [QueryItem], status: Int, describedQuery: Set<String>) {
        self.contract = contract
        self.caseName = caseName
        self.method = method
        self.pathTemplate = pathTemplate
        self.query = query
        self.status = status
        self.describedQuery = describedQuery
        segments = RouteTable.segments(pathTemplate)
    }

    /// `products.get/found`.
    public var name: String { "\(contract)/\(caseName)" }
}

/// Routes a request to a case: same method, a path the template matches, then the case. A case a
/// test chose answers; else a case whose query items the request sends, a success case first;
/// else, when the endpoint describes those query parameters, its success case. When none
/// matches, says which route came nearest and why it did not. The stubs and the mock server route
/// with this one table.
public struct RouteTable: Sendable {
    public let routes: [Route]
    /// The templates' segments as a tree, so a request is compared with the routes its path can
    /// take, not every route: a table of 1,500 routes routes as fast as one of ten.
    private let tree: SegmentTree
    /// Each contract's routes, in order.
    private let byContract: [String: [Int]]

    public init(_ routes: [Route]) {
        self.routes = routes
        tree = SegmentTree(routes.map(\.segments))
        var byContract: [String: [Int]] = [:]
        for (index, route) in routes.enumerated() { byContract[route.contract, default: []].append(index) }
        self.byContract = byContract
    }

    /// The outcome of routing one request.
    public enum Match: Sendable, Equatable {
        /// The index of the route that answers.
        case route(Int)
        /// The contract the request reaches has no case of the name chosen for it. `reason` says
        /// so without what the request sent (its `Prefer` header's value), for a usage record.
        case unknownChosenCase(contract: String, caseName: String, message: String, reason: String)
        /// No route takes the request: why, and the nearest route's index (nil with no routes).
        /// `reason` is why the nearest route does not take it, without the method and URL the
        /// message opens with and without a value of the query sent (a query may hold a
        /// credential under a name no rule knows), for a usage record.
        case none(message: String, nearest: Int?, reason: String)
    }

    /// - Parameters:
    ///   - path: percent-encoded, as sent.
    ///   - shownURL: the request's URL as messages show it.
    ///   - operationID: the operation the caller names (an OpenAPI client's), preferred over
    ///     other routes whose path and method also match.
    ///   - chosen: the case chosen per contract id.
    ///   - preference: the case the request itself asks for (`Prefer`), over a chosen one.
    public func match(
        method: String, path: String, query: [Route.QueryItem], shownURL: String, operationID: String? = nil, chosen: [String: String] = [:],
        preference: Preference? = nil
    ) -> Match {
        let segments = Self.segments(path)
        let upper = method.uppercased()
        // The routes whose template the path fills and whose method it is, in the table's order.
        var candidates = tree.routes(matching: segments).filter { routes[$0].method == upper }
        // The operation the caller names is its contract, wherever the client's base URL puts the path.
        // `contract import openapi` makes ids of operationIds (`pets/get` is `pets-get`), so they
        // are also compared without punctuation or case.
        if let operationID {
            let named = byContract[operationID] ?? []
            let loose = named.isEmpty ? routes.indices.filter { Self.loose(routes[$0].contract) == Self.loose(operationID) } : named
            if !loose.isEmpty { candidates = loose }
        }
        if let first = candidates.first, let preference, !preference.isEmpty {
            return preferred(preference, of: routes[first].contract, method: method, path: path)
        }
        if let first = candidates.first, let chosenCase = chosen[routes[first].contract] {
            let contract = routes[first].contract
            if let index = byContract[contract]?.first(where: { routes[$0].caseName == chosenCase }) { return .route(index) }
            return .unknownChosenCase(
                contract: contract, caseName: chosenCase,
                message: "\(method) \(path): no case '\(chosenCase)' in \(contract) (use(_:case:) names a case of its fixtures)",
                reason: "no case '\(chosenCase)' in \(contract) (use(_:case:) names a case of its fixtures)")
        }
        // Several cases of one endpoint: a success case answers unless a test chooses another.
        for ignoringDescribed in [false, true] {
            let sending = candidates.filter { Self.queryMismatch(routes[$0], query, ignoringDescribed: ignoringDescribed) == nil }
            if let index = sending.first(where: { (200..<300).contains(routes[$0].status) }) ?? sending.first { return .route(index) }
        }
        if let first = candidates.first, let mismatch = Self.queryMismatch(routes[first], query, ignoringDescribed: true) {
            return none(method: method, shownURL: shownURL, route: first, reason: mismatch.shown, recorded: mismatch.recorded)
        }
        // No route takes it: only now is every route compared, for the nearest and why.
        var nearest: (score: Int, reason: String, index: Int)? = nil
        for (index, route) in routes.enumerated() {
            let (score, reason) = Self.compare(route, method: method, segments: segments)
            if let reason, score > (nearest?.score ?? -1) { nearest = (score, reason, index) }
        }
        guard let nearest else { return .none(message: "\(method) \(path): no fixtures loaded", nearest: nil, reason: "no fixtures loaded") }
        // A path's reason quotes the path's segments, which a usage record keeps anyway.
        return none(method: method, shownURL: shownURL, route: nearest.index, reason: nearest.reason, recorded: nearest.reason)
    }

    private func none(method: String, shownURL: String, route index: Int, reason: String, recorded: String) -> Match {
        let route = routes[index]
        return .none(
            message: "\(method) \(shownURL) matches no fixture; nearest is \(route.name) (\(route.method) \(route.pathTemplate)): \(reason)",
            nearest: index, reason: recorded)
    }

    /// The case of `contract` the request asks for: by name, else the first answering the status.
    private func preferred(_ preference: Preference, of contract: String, method: String, path: String) -> Match {
        let cases = byContract[contract] ?? []
        let named = cases.filter { preference.caseName == nil || routes[$0].caseName == preference.caseName }
        if let index = named.first(where: { preference.status == nil || routes[$0].status == preference.status }) { return .route(index) }
        let listing = cases.map { "\(routes[$0].caseName) (\(routes[$0].status))" }.joined(separator: ", ")
        let asked = [preference.caseName.map { "case '\($0)'" }, preference.status.map { "status \($0)" }].compactMap { $0 }.joined(separator: " and ")
        return .unknownChosenCase(
            contract: contract, caseName: preference.caseName ?? preference.status.map(String.init) ?? "",
            message: "\(method) \(path): Prefer asks for \(asked), which no case of \(contract) has (its cases: \(listing))",
            reason: "its Prefer header asks for a case \(contract) does not have (its cases: \(listing))")
    }

    /// How close a route's method and path are (higher is closer) and why they do not match, or
    /// nil when they do. Closeness counts the segments that match from the start or, for a path
    /// with a base before it (`/v2/api/products/1`), from the end; then the number of segments,
    /// then the method: so `GET /api/orders/1` is nearest `GET /api/products/{id}`, not
    /// `POST /api/products`.
    static func compare(_ route: Route, method: String, segments: [String]) -> (Int, String?) {
        let template = route.segments
        func matches(_ part: String, _ segment: String) -> Bool {
            SegmentTree.isPlaceholder(part) || part == segment
        }
        let prefix = zip(template, segments).prefix { matches($0, $1) }.count
        let suffix = zip(template.reversed(), segments.reversed()).prefix { matches($0, $1) }.count
        let sameMethod = route.method == method.uppercased()
        let score = 4 * max(prefix, suffix) + (template.count == segments.count ? 2 : 0) + (sameMethod ? 1 : 0)
        if prefix == template.count, template.count == segments.count {
            return sameMethod ? (score, nil) : (score, "the method is \(method), the fixture's is \(route.method)")
        }
        if suffix == template.count, segments.count > template.count {
            let base = "/" + segments.prefix(segments.count - template.count).joined(separator: "/")
            return (score, "the path has '\(base)' before the template's \(route.pathTemplate) (a base URL with a path of its own?)")
        }
        if prefix < min(template.count, segments.count) {
            return (score, "path segment \(prefix + 1) is '\(segments[prefix])', the template has '\(template[prefix])'")
        }
        if segments.count < template.count {
            return (score, "the path ends after /\(segments.joined(separator: "/")), the template goes on with '/\(template[segments.count])'")
        }
        return (score, "the path has \(segments.count) segments, the template \(template.count)")
    }

    /// Why the request does not send the route's query items, or nil when it does: as a message
    /// shows it (`shown`: the value sent, unless its name may hold a credential), and as a usage
    /// record keeps it (`recorded`: the fixture's value only, nothing the request sent).
    /// - Parameter ignoringDescribed: items of parameters the endpoint describes count as sent
    ///   whatever their value: the request checks hold the value.
    static func queryMismatch(_ route: Route, _ query: [Route.QueryItem], ignoringDescribed: Bool) -> (shown: String, recorded: String)? {
        for item in route.query where !query.contains(item) {
            if ignoringDescribed, route.describedQuery.contains(item.name) { continue }
            let missing = "query item '\(item.name)=\(item.value ?? "")' is missing"
            guard let present = query.first(where: { $0.name == item.name }) else { return (missing, missing) }
            let differs = "query item '\(item.name)' differs from the fixture's"
            if CredentialNames.mayBeCredential(item.name) { return (differs + " (not shown: it may be a secret)", differs) }
            return ("query item '\(item.name)' is '\(present.value ?? "")', the fixture's is '\(item.value ?? "")'", differs + " ('\(item.value ?? "")')")
        }
        return nil
    }

    /// Letters and digits only, lowercased: `pets/get`, `pets-get` and `PetsGet` are one name.
    static func loose(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
    }

    /// A path's segments between slashes, empty ones left out; split on its bytes.
    static func segments(_ path: String) -> [String] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { String(Substring($0)) }
    }
}
