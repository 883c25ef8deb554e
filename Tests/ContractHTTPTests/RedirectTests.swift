import ContractHTTP
import Foundation
import TestSupport
import Testing

/// Redirects followed with `maxRedirects`: hop by hop, each request made by the rules browsers
/// follow, and no credential carried to another origin (libcurl sends every custom header again
/// to wherever a `Location` points).
struct RedirectTests {
    let client = HTTPClient()
    static let sent = [
        HTTPHeader("Accept", "application/json"), HTTPHeader("Authorization", "Bearer s3cret"), HTTPHeader("X-API-Key", "k3y"),
        HTTPHeader("Cookie", "session=abc"),
    ]

    func options(_ maxRedirects: Int = 3) -> HTTPOptions {
        var options = HTTPOptions()
        options.timeout = .seconds(5)
        options.maxRedirects = maxRedirects
        return options
    }

    func send(_ url: String, method: String = "GET", body: [UInt8]? = nil, maxRedirects: Int = 3) async throws -> HTTPResponse {
        try await client.send(HTTPRequest(method: method, url: url, headers: Self.sent, body: body), options: options(maxRedirects)).get()
    }

    /// A server answering `/start` with `status` and a `Location` of `target`, and anything else with 200.
    static func redirecting(_ status: Int, to target: @escaping @Sendable () -> String) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _, path in
            path == "/start" ? .respond(status: status, headers: [("Location", target())], body: []) : .json(status: 200, #"{"ok":true}"#)
        }
    }

    @Test func anotherOriginGetsOnlyTheHeadersABrowserSendsWithoutAsking() async throws {
        let other = try LoopbackHTTPServer { _, _ in .json(status: 200, #"{"there":true}"#) }
        defer { other.stop() }
        let target = other.baseURL + "/landing"
        let server = try Self.redirecting(302) { target }
        defer { server.stop() }

        let response = try await send(server.baseURL + "/start")
        #expect(response.status == 200 && response.redirects == 1 && response.effectiveURL == target)
        let arrived = try #require(other.requests.first)
        #expect(arrived.target == "/landing")
        #expect(arrived.header("Accept") == "application/json")
        for name in ["Authorization", "X-API-Key", "Cookie"] { #expect(arrived.header(name) == nil, "\(name) reached another origin") }
    }

    @Test func theSameOriginGetsEveryHeaderAgain() async throws {
        let server = try Self.redirecting(307) { "/landing" }
        defer { server.stop() }
        let response = try await send(server.baseURL + "/start")
        #expect(response.status == 200 && response.redirects == 1 && response.effectiveURL == server.baseURL + "/landing")
        let landing = try #require(server.requests.last)
        #expect(landing.target == "/landing")
        for header in Self.sent { #expect(landing.header(header.name) == header.value) }
    }

    /// 303 turns any method but HEAD into a GET without a body; 301 and 302 turn a POST into one;
    /// 307 and 308 repeat the method and the body.
    @Test(arguments: [(303, "PUT", "GET", false), (302, "POST", "GET", false), (301, "POST", "GET", false), (302, "PUT", "PUT", true),
                      (307, "POST", "POST", true), (308, "PATCH", "PATCH", true)])
    func theMethodAndBodyFollowTheStatus(_ status: Int, _ method: String, _ then: String, _ keepsBody: Bool) async throws {
        let server = try Self.redirecting(status) { "/landing" }
        defer { server.stop() }
        let body = Array(#"{"name":"a"}"#.utf8)
        let response = try await send(server.baseURL + "/start", method: method, body: body)
        #expect(response.status == 200)
        let landing = try #require(server.requests.last)
        #expect(landing.method == then)
        #expect(landing.body == (keepsBody ? body : []))
    }

    @Test func moreRedirectsThanAllowedIsAnError() async throws {
        let server = try Self.redirecting(302) { "/start" }
        defer { server.stop() }
        let result = await client.send(HTTPRequest(method: "GET", url: server.baseURL + "/start"), options: options(2))
        guard case .failure(let error) = result else {
            Issue.record("expected too many redirects, got \(result)")
            return
        }
        #expect(error.kind == .tooManyRedirects)
        // The first request and two redirects followed; the third is refused, not sent.
        #expect(server.requests.count == 3)
    }

    /// Not followed, the redirect is the answer, checked like any response: the server was reached.
    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "myapp://callback"])
    func aRedirectToANonHTTPURLIsTheAnswer(_ target: String) async throws {
        let server = try Self.redirecting(302) { target }
        defer { server.stop() }
        let response = try await send(server.baseURL + "/start")
        #expect(response.status == 302 && response.redirects == 0 && server.requests.count == 1)
    }

    /// A body can hold a password as well as a header can: a 307 or 308 that would send it to
    /// another origin is the answer, not followed.
    @Test func aBodyIsNotSentOnToAnotherOrigin() async throws {
        let other = try LoopbackHTTPServer { _, _ in .json(status: 200, "{}") }
        defer { other.stop() }
        let target = other.baseURL + "/landing"
        let server = try Self.redirecting(307) { target }
        defer { server.stop() }
        let response = try await send(server.baseURL + "/start", method: "POST", body: Array(#"{"password":"hunter2"}"#.utf8))
        #expect(response.status == 307 && other.requests.isEmpty)
        // Without a body, the same redirect is followed.
        #expect(try await send(server.baseURL + "/start").status == 200)
    }

    /// The timeout is the whole request's, its hops together (each hop here is within it, the
    /// three are not), and the timings add the hops up.
    @Test func theTimeoutCoversEveryHop() async throws {
        let server = try LoopbackHTTPServer { _, path in
            Thread.sleep(forTimeInterval: 0.6)
            switch path {
            case "/a": return .respond(status: 302, headers: [("Location", "/b")], body: [])
            case "/b": return .respond(status: 302, headers: [("Location", "/c")], body: [])
            default: return .json(status: 200, "{}")
            }
        }
        defer { server.stop() }
        var options = options(5)
        options.timeout = .seconds(1)
        let result = await client.send(HTTPRequest(method: "GET", url: server.baseURL + "/a"), options: options)
        guard case .failure(let error) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(error.kind == .timeout)
        options.timeout = .seconds(30)
        let response = try await client.send(HTTPRequest(method: "GET", url: server.baseURL + "/a"), options: options).get()
        #expect(response.redirects == 2 && response.timings.total >= .milliseconds(1_800))
    }

    @Test func withoutMaxRedirectsARedirectIsTheResponse() async throws {
        let server = try Self.redirecting(302) { "/landing" }
        defer { server.stop() }
        let response = try await send(server.baseURL + "/start", maxRedirects: 0)
        #expect(response.status == 302 && response.redirects == 0 && server.requests.count == 1)
    }
}
