import ContractRequests
import ContractSchema
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The fixtures a server answers with, as routes, with each endpoint's request checker compiled
/// on the first request that reaches it (a server of 1,500 cases starts at once, and pays only
/// for the endpoints its clients call). Replaced whole when the contracts change.
final class ServedSet: Sendable {
    let fixtures: [FixtureFile]
    let routes: RouteTable
    /// Each fixture's answer as it is written: its headers (but the framing ones, which the
    /// server writes) with `Contract-Case` and `Content-Length`, and its body.
    let answers: [(headers: HTTPHeaders, body: ByteBuffer)]
    /// Each fixture's endpoint key (contract and source): the cases of one endpoint share a checker.
    private let keys: [String]
    private let checkers = NIOLockedValueBox<[String: Result<RequestChecker, SchemaCompilationError>]>([:])

    init(_ fixtures: [FixtureFile]) {
        self.fixtures = fixtures
        routes = RouteTable(fixtures.map(\.route))
        keys = fixtures.map { "\($0.contract)\u{0}\($0.source)" }
        answers = fixtures.map { fixture in
            var headers = HTTPHeaders()
            for header in fixture.headers where !Self.framingHeaders.contains(header.name.lowercased()) {
                headers.add(name: header.name, value: header.value)
            }
            headers.add(name: "Contract-Case", value: fixture.name)
            let body = MockReply.allowsBody(fixture.status) ? fixture.body ?? [] : []
            if MockReply.sendsLength(fixture.status) { headers.add(name: "Content-Length", value: String(body.count)) }
            return (headers, ByteBuffer(bytes: body))
        }
    }

    /// Headers the server writes itself: a fixture's own values would contradict the body sent.
    static let framingHeaders: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// The checker of fixture `index`'s endpoint, or why its schemas do not compile.
    func checker(for index: Int) -> Result<RequestChecker, SchemaCompilationError> {
        let key = keys[index]
        if let made = checkers.withLockedValue({ $0[key] }) { return made }
        // Compiled outside the lock: two first requests may both compile, and one result is kept.
        let fixture = fixtures[index]
        let made: Result<RequestChecker, SchemaCompilationError>
        do {
            made = .success(try RequestChecker(fixture.endpoint, source: fixture.source))
        } catch {
            made = .failure(error)
        }
        return checkers.withLockedValue { cache in
            if let first = cache[key] { return first }
            cache[key] = made
            return made
        }
    }

    /// Every contract id, in the order of its first fixture.
    var contracts: [String] {
        var seen = Set<String>()
        return fixtures.map(\.contract).filter { seen.insert($0).inserted }
    }
}
