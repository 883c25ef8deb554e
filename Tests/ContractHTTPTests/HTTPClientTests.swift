import ContractHTTP
import Foundation
import TestSupport
import Testing

/// The libcurl wrapper against a real server on loopback: what comes back, and how each way a
/// transfer can break is classified, always within its timeout.
struct HTTPClientTests {
    let client = HTTPClient()

    func send(
        _ server: LoopbackHTTPServer, _ path: String = "/", method: String = "GET", headers: [HTTPHeader] = [], body: [UInt8]? = nil,
        options: HTTPOptions = HTTPOptions()
    ) async -> Result<HTTPResponse, TransportError> {
        await client.send(HTTPRequest(method: method, url: server.baseURL + path, headers: headers, body: body), options: options)
    }

    func response(_ result: Result<HTTPResponse, TransportError>, sourceLocation: SourceLocation = #_sourceLocation) throws -> HTTPResponse {
        switch result {
        case .success(let response): return response
        case .failure(let error):
            Issue.record("expected a response, got \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    func failure(_ result: Result<HTTPResponse, TransportError>, sourceLocation: SourceLocation = #_sourceLocation) -> TransportError? {
        switch result {
        case .success(let response):
            Issue.record("expected a transport error, got status \(response.status)", sourceLocation: sourceLocation)
            return nil
        case .failure(let error): return error
        }
    }

    func options(timeout: Duration = .seconds(5), configure: (inout HTTPOptions) -> Void = { _ in }) -> HTTPOptions {
        var options = HTTPOptions()
        options.timeout = timeout
        options.connectTimeout = .seconds(2)
        configure(&options)
        return options
    }

    @Test func aResponseWithRepeatedHeadersBodyVersionAndTimings() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            .respond(status: 200, headers: [("Content-Type", "application/json"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")], body: Array(#"{"ok":true}"#.utf8))
        }
        let response = try self.response(await send(server))
        #expect(response.status == 200)
        #expect(response.values(of: "set-cookie") == ["a=1", "b=2"])
        #expect(response.value(of: "content-type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        #expect(response.httpVersion == "HTTP/1.1")
        #expect(response.timings.total > .zero && response.timings.firstByte <= response.timings.total)
    }

    @Test func theRequestArrivesAsSent() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 201, "{}") }
        let body = Array(#"{"name":"Eraser"}"#.utf8)
        _ = try response(await send(server, "/api/products?x=1", method: "POST", headers: [HTTPHeader("Authorization", "Bearer t")], body: body))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/api/products?x=1")
        #expect(request.header("authorization") == "Bearer t")
        #expect(request.header("expect") == nil)
        #expect(request.body == body)
    }

    /// libcurl sends a header as given: a line break in a value would start fields (or a whole
    /// request) of whoever chose it. The wrapper refuses such a request before the wire, whatever
    /// the caller checked; a tab is a value's own.
    @Test func aHeaderWithALineBreakIsNeverSent() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, "{}") }
        for value in ["a\r\nX-Injected: 1", "a\nb", "a\u{0}b", "a\u{7F}"] {
            let error = failure(await send(server, headers: [HTTPHeader("X-Id", value)], options: options()))
            #expect(error?.detail.contains("a header holds a line break or another control character") == true, "\(String(describing: error))")
        }
        // Nor a method that is not a token (it is the request line's first word).
        for method in ["GET /smuggled HTTP/1.1\r\nX-Injected: 1\r\nX-Pad: x", "PO ST", ""] {
            let error = failure(await send(server, method: method, options: options()))
            #expect(error?.detail.contains("the method is not an HTTP token") == true, "\(String(describing: error))")
        }
        #expect(server.requests.isEmpty)
        _ = try response(await send(server, headers: [HTTPHeader("X-Id", "a\tb")], options: options()))
        #expect(server.requests.first?.header("x-id") == "a\tb")
    }

    /// One engine reuses its handles; a plain GET keeps its handle configured for the next one, so
    /// nothing of a POST, a HEAD or other options may leak into the requests after it.
    @Test func aReusedHandleCarriesNothingFromTheRequestBefore() async throws {
        let server = try LoopbackHTTPServer { method, _ in
            method == "HEAD" ? .respond(status: 200, headers: [("Content-Length", "3")], body: []) : .json(status: 200, #"{"a":1}"#)
        }
        let one = HTTPClient(engines: 1)
        let slow = options(timeout: .seconds(7)) { $0.userAgent = "other-agent" }
        let sequence: [(String, [UInt8]?, HTTPOptions)] = [
            ("GET", nil, HTTPOptions()), ("POST", Array("x=1".utf8), HTTPOptions()), ("GET", nil, HTTPOptions()), ("HEAD", nil, HTTPOptions()),
            ("GET", nil, HTTPOptions()), ("GET", nil, slow), ("GET", nil, HTTPOptions()),
        ]
        for (method, body, options) in sequence {
            let result = await one.send(HTTPRequest(method: method, url: server.baseURL + "/r", body: body), options: options)
            let response = try self.response(result)
            #expect(response.body == (method == "HEAD" ? [] : Array(#"{"a":1}"#.utf8)))
        }
        let received = server.requests
        #expect(received.map(\.method) == sequence.map(\.0))
        #expect(received.map(\.body) == sequence.map { $0.1 ?? [] })
        #expect(received.map { $0.header("user-agent") } == sequence.map { $0.2.userAgent })
    }

    /// Options set only under a condition do not outlive their transfer on a reused handle.
    @Test func aReusedHandleForgetsOptionsSetOnlyUnderACondition() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, #"{"a":1}"#) }
        let one = HTTPClient(engines: 1)
        var plain = HTTPOptions()
        plain.decodesContent = false
        _ = try response(await one.send(HTTPRequest(method: "GET", url: server.baseURL + "/first"), options: HTTPOptions()))
        _ = try response(await one.send(HTTPRequest(method: "GET", url: server.baseURL + "/second"), options: plain))
        let received = server.requests
        #expect(received.count == 2)
        #expect(received.first?.header("accept-encoding") != nil)
        #expect(received.last?.header("accept-encoding") == nil, "decodesContent = false asks for no encoding")
    }

    @Test func connectionRefusedIsUnreachable() async throws {
        let port = try LoopbackHTTPServer.closedPort()
        let result = await client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/"), options: options())
        let error = try #require(failure(result))
        #expect(error.kind == .connectionRefused)
        #expect(error.isUnreachable && error.isTransient)
        #expect(error.detail.contains("\(port)"))
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try LoopbackHTTPServer { _, _ in .neverAnswer }
        // No clock is read: libcurl has no total timeout of its own, and the connection is
        // made, so only the 300 ms option can end a request to a server that never answers.
        let result = await client.send(HTTPRequest(method: "GET", url: server.baseURL), options: options(timeout: .milliseconds(300)))
        let error = try #require(failure(result))
        #expect(error.kind == .timeout)
        #expect(!error.isUnreachable)
    }

    @Test func aResetInTheMiddleOfTheBodyIsALostConnection() async throws {
        let server = try LoopbackHTTPServer { _, _ in .resetMidBody(declaredLength: 1000, sent: Array(#"{"data": ["#.utf8)) }
        let error = try #require(failure(await send(server, options: options())))
        #expect(error.kind == .connectionLost)
    }

    @Test func aTruncatedChunkedBodyIsALostConnection() async throws {
        let server = try LoopbackHTTPServer { _, _ in .truncatedChunked(chunks: [Array(#"{"data": "#.utf8), Array("[1, 2".utf8)]) }
        let error = try #require(failure(await send(server, options: options())))
        #expect(error.kind == .connectionLost)
    }

    @Test func bodiesOverTheCapFailWithoutGrowingMemory() async throws {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)
        let announced = try LoopbackHTTPServer { _, _ in .respond(status: 200, headers: [], body: big) }
        let limited = options { $0.maxBodyBytes = 10_000 }
        #expect(try #require(failure(await send(announced, options: limited))).kind == .bodyTooLarge)
        // Without a length up front, the write callback stops it.
        let chunked = try LoopbackHTTPServer { _, _ in .truncatedChunked(chunks: Array(repeating: Array(big[..<5_000]), count: 20)) }
        #expect(try #require(failure(await send(chunked, options: limited))).kind == .bodyTooLarge)
    }

    @Test func redirectsAreResponsesUnlessFollowed() async throws {
        let server = try LoopbackHTTPServer { _, _ in .redirectLoop }
        let response = try self.response(await send(server, "/loop", options: options()))
        #expect(response.status == 302)
        #expect(response.value(of: "Location") == "/loop")
        let error = try #require(failure(await send(server, "/loop", options: options { $0.maxRedirects = 3 })))
        #expect(error.kind == .tooManyRedirects)
    }

    @Test func bodiesArriveByteForByteEvenWhenNotUTF8() async throws {
        let bytes: [UInt8] = [0x66, 0x6F, 0xFF, 0xFE, 0x00, 0x80]
        let server = try LoopbackHTTPServer { _, _ in .respond(status: 200, headers: [("Content-Type", "text/plain")], body: bytes) }
        #expect(try response(await send(server)).body == bytes)
    }

    @Test func aSlowTrickleArrivesWholeOrTimesOut() async throws {
        let body = Array(#"{"slow": true, "padding": "0123456789"}"#.utf8)
        let server = try LoopbackHTTPServer { _, _ in .trickle(body: body, bytesPerInterval: 8, interval: .milliseconds(40)) }
        #expect(try response(await send(server, options: options())).body == body)
        let error = try #require(failure(await send(server, options: options(timeout: .milliseconds(100)))))
        #expect(error.kind == .timeout)
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let gzipped: [UInt8] = [
            31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 74, 206, 207, 45, 40, 74, 45, 46, 78, 77, 81, 178, 82, 40, 41, 42, 77, 173, 5, 0, 189,
            165, 44, 45, 20, 0, 0, 0,
        ]
        let server = try LoopbackHTTPServer { _, _ in .respond(status: 200, headers: [("Content-Encoding", "gzip")], body: gzipped) }
        #expect(String(decoding: try response(await send(server)).body, as: UTF8.self) == #"{"compressed": true}"#)
        let request = try #require(server.requests.first)
        #expect(request.header("accept-encoding")?.contains("gzip") == true)
    }

    @Test func malformedResponsesAreProtocolErrors() async throws {
        let server = try LoopbackHTTPServer { _, _ in .raw(Array("this is not HTTP\r\n\r\n".utf8)) }
        let error = try #require(failure(await send(server, options: options())))
        #expect(error.kind == .protocolError)
    }

    @Test func anUnknownSchemeIsAnInvalidURL() async throws {
        let error = try #require(failure(await client.send(HTTPRequest(method: "GET", url: "nope://127.0.0.1/"), options: options())))
        #expect(error.kind == .invalidURL)
        #expect(error.isUnreachable)
    }

    @Test func tlsToAPlainServerIsATLSFailure() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, "{}") }
        let result = await client.send(HTTPRequest(method: "GET", url: "https://127.0.0.1:\(server.port)/"), options: options())
        let error = try #require(failure(result))
        #expect(error.kind == .tls)
        #expect(error.isUnreachable)
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try LoopbackHTTPServer { _, _ in .neverAnswer }
        let client = self.client
        // No clock is read: the timeout is a day, and a call it ended would say `.timeout`;
        // only the cancellation makes it `.cancelled`.
        let task = Task { await client.send(HTTPRequest(method: "GET", url: server.baseURL), options: options(timeout: .seconds(86_400))) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let error = try #require(failure(await task.value))
        #expect(error.kind == .cancelled)
    }

    @Test func processingRunsOnTheOutcomeBeforeTheTaskResumes() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, #"{"ok":true}"#) }
        let length = await client.send(HTTPRequest(method: "GET", url: server.baseURL)) { (try? $0.get().body.count) ?? -1 }
        #expect(length == 11)
        let port = try LoopbackHTTPServer.closedPort()
        let kind = await client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/")) { result -> String in
            if case .failure(let error) = result { return error.kind.rawValue }
            return "response"
        }
        #expect(kind == "connection refused")
    }

    @Test func severalEnginesShareTheWork() async throws {
        let server = try LoopbackHTTPServer { _, target in .json(status: 200, #"{"path": "\#(target)"}"#) }
        let client = HTTPClient(engines: 3)
        let bodies = await withTaskGroup(of: String.self) { group in
            for index in 0..<60 {
                group.addTask { String(decoding: (try? await client.send(HTTPRequest(method: "GET", url: server.baseURL + "/\(index)")).get().body) ?? [], as: UTF8.self) }
            }
            var bodies: Set<String> = []
            for await body in group { bodies.insert(body) }
            return bodies
        }
        #expect(bodies == Set((0..<60).map { #"{"path": "/\#($0)"}"# }))
    }

    @Test(arguments: [1, 3])
    func aStreamRunsEveryRequestWithItsWidthInFlight(engines: Int) async throws {
        let server = try LoopbackHTTPServer { _, target in .json(status: 200, #"{"path": "\#(target)"}"#) }
        let client = HTTPClient(engines: engines)
        let source = Counter()
        let results = Results()
        await client.stream(width: 8) {
            let index = source.next()
            guard index <= 300 else { return nil }
            return (HTTPRequest(method: "GET", url: server.baseURL + "/\(index)"), { result, _ in results.add(index, (try? result.get().status) ?? 0) })
        }
        #expect(results.all.count == 300)
        #expect(results.all.allSatisfy { $0.value == 200 })
        #expect(Set(server.requests.map(\.target)) == Set((1...300).map { "/\($0)" }))
        // An empty stream returns at once.
        await client.stream(width: 8) { nil }
    }

    /// Transient errors are retried in the stream, after their pause, and counted; other
    /// outcomes are final at once.
    @Test func aStreamRetriesTransientErrorsInPlace() async throws {
        let tries = Counter()
        let server = try LoopbackHTTPServer { _, target in
            switch target {
            case "/flaky": tries.next() <= 2 ? .resetMidBody(declaredLength: 100, sent: []) : .json(status: 200, "{}")
            case "/down": .resetMidBody(declaredLength: 100, sent: [])
            default: .json(status: 500, "{}")
            }
        }
        let outcomes = Results()
        let targets = ["/flaky", "/down", "/error"]
        let next = Counter()
        let started = ContinuousClock.now
        await HTTPClient(engines: 1).stream(width: 2, retries: 2) {
            let index = next.next() - 1
            guard index < targets.count else { return nil }
            return (HTTPRequest(method: "GET", url: server.baseURL + targets[index]), { result, attempts in
                outcomes.add(index, ((try? result.get().status) ?? -1) * 10 + attempts)
            })
        }
        #expect(outcomes.all == [0: 2003, 1: -10 + 3, 2: 5001], "status (or -1) and attempts per request")
        // Two pauses of 100 and 200 ms before the third try of /flaky and /down.
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(server.requests.filter { $0.target == "/down" }.count == 3)
    }

    @Test func manyConcurrentRequestsShareConnections() async throws {
        let server = try LoopbackHTTPServer { _, target in .json(status: 200, #"{"path": "\#(target)"}"#) }
        let client = self.client
        let statuses = await withTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let result = await client.send(HTTPRequest(method: "GET", url: server.baseURL + "/\(index)"))
                    return (try? result.get().status) ?? 0
                }
            }
            var statuses: [Int] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 })
        #expect(server.requests.count == 200)
    }
}

/// Statuses by request, filled from the client's threads.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: Int] = [:]

    func add(_ key: Int, _ value: Int) {
        lock.withLock { values[key] = value }
    }

    var all: [Int: Int] { lock.withLock { values } }
}
