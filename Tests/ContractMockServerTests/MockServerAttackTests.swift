import ContractHTTP
import ContractJSON
import ContractMockServer
import ContractRequests
import Foundation
import Testing

/// What a hostile or merely unusual client does to the server: the server goes on answering,
/// and answers as HTTP/1.1 says.
struct MockServerAttackTests {
    typealias Harness = MockServerHarness

    /// A 1xx is not an answer: NIO's pipeline stops the process when a body follows an interim
    /// head, so a status fault of 100 took the whole server (and a UI test's process) down.
    @Test func aStatusFaultOf1xxIsRefusedAndTheServerGoesOn() async throws {
        let harness = try Harness()
        for code in [100, 102, 199] {
            #expect(throws: MockServerError.self) { try harness.server.inject(.status(code)) }
            let refused = try await harness.response("POST", "/__contract/inject", body: #"{"status": \#(code)}"#)
            #expect(refused.status == 400, "\(code)")
        }
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
        try harness.server.inject(.status(200), times: 1)
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
    }

    /// A fixture that answers 1xx (a hostile fixtures folder, a contract's interim case) is not
    /// sent as an answer: a 500 problem says why, and the server goes on.
    @Test func aFixtureAnswering1xxGetsAProblemNotACrash() async throws {
        let harness = try Harness()
        var fixtures = harness.server.fixtures
        // Every success of the endpoint, so none answers in its place.
        let successes = fixtures.indices.filter { fixtures[$0].name.hasPrefix("products.get/") && (200..<300).contains(fixtures[$0].status) }
        #expect(successes.count >= 1)
        for index in successes { fixtures[index].status = 100 }
        harness.server.replace(fixtures: fixtures)
        let connection = try RawConnection(port: try #require(harness.server.port))
        connection.send("GET /api/products/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try #require(connection.readAnswer())
        #expect(answer.head.hasPrefix("HTTP/1.1 500"), "\(answer.head)")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("100"))
        #expect(try await harness.response("GET", "/health").status == 200, "the server goes on")
    }

    /// curl sends `Expect: 100-continue` before a body over 1 MiB and waits a second for the
    /// `100 Continue` (other clients wait longer, or for ever) before sending it anyway.
    @Test func expectContinueGetsA100BeforeTheBodyIsSent() throws {
        let harness = try Harness()
        let connection = try RawConnection(port: try #require(harness.server.port))
        let body = #"{"name": "Eraser", "price": 0.8, "currency": "KRW"}"#
        connection.send(
            "POST /api/products HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
        let interim = try #require(connection.readHead(), "no 100 Continue before the body")
        #expect(interim.hasPrefix("HTTP/1.1 100"), "\(interim)")
        connection.send(body)
        let answer = try #require(connection.readAnswer())
        #expect(answer.head.hasPrefix("HTTP/1.1 201"), "\(answer.head)")
        // A body declared over the bound gets its 413 instead, and no 100.
        var options = MockServer.Options()
        options.maxBodyBytes = 10
        let bounded = try Harness(options: options)
        let refused = try RawConnection(port: try #require(bounded.server.port))
        refused.send("POST /api/products HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
        #expect(refused.readHead()?.hasPrefix("HTTP/1.1 413") == true)
    }

    /// With `--cors`, a page's call to the control API (a JSON body, a DELETE) is preflighted
    /// first; the preflight was answered as a control call (404), so the page could not make it.
    @Test func corsPreflightsTheControlAPITo() async throws {
        var options = MockServer.Options()
        options.cors = true
        let harness = try Harness(options: options)
        for (path, method) in [("/__contract/faults", "DELETE"), ("/__contract/use", "POST")] {
            let preflight = try await harness.response(
                "OPTIONS", path, headers: [("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", method), ("Access-Control-Request-Headers", "content-type")])
            #expect(preflight.status == 204, "\(method) \(path)")
            #expect(preflight.headers.value(of: "Access-Control-Allow-Methods") == method)
            #expect(preflight.headers.value(of: "Access-Control-Allow-Origin") == "http://localhost:3000")
        }
        let removed = try await harness.response("DELETE", "/__contract/faults", headers: [("Origin", "http://localhost:3000")])
        #expect(removed.status == 204 && removed.headers.value(of: "Access-Control-Allow-Origin") == "http://localhost:3000")
    }

    /// A client configured with the server as its HTTP proxy sends the absolute form
    /// (`GET http://host/api/products/1`), which a server must take (RFC 9112 §3.2.2).
    @Test func anAbsoluteFormTargetIsRoutedByItsPath() async throws {
        let harness = try Harness()
        let connection = try RawConnection(port: try #require(harness.server.port))
        connection.send("GET http://api.example.com/api/products/1?expand=1 HTTP/1.1\r\nHost: api.example.com\r\n\r\n")
        let answer = try #require(connection.readAnswer())
        #expect(answer.head.hasPrefix("HTTP/1.1 200") && answer.head.contains("Contract-Case: products.get/found"), "\(answer.head)")
        connection.send("GET HTTP://127.0.0.1:8443/__contract HTTP/1.1\r\nHost: 127.0.0.1:8443\r\n\r\n")
        #expect(connection.readAnswer()?.head.hasPrefix("HTTP/1.1 200") == true, "the control API too")
        // Not under another site's name: a page that rebinds its name to 127.0.0.1 sends that.
        connection.send("GET HTTPS://api.example.com:8443/__contract HTTP/1.1\r\nHost: api.example.com\r\n\r\n")
        #expect(connection.readAnswer()?.head.hasPrefix("HTTP/1.1 403") == true, "the control API under a site's name")
        let received = try #require(harness.server.requests.last)
        #expect(received.path == "/api/products/1" && received.query.map(\.name) == ["expand"])
    }

    /// `{"contract": 5}` or `{"case": "invalid"}` alone read as "no contract named", which
    /// relaxed the checks of every contract; an unknown `?only=` listed every request.
    @Test func aControlCallWithAMemberOfTheWrongTypeIsRefused() async throws {
        let harness = try Harness()
        for body in [#"{"contract": 5}"#, #"{"contract": ["products.create"]}"#, #"{"case": "invalid"}"#] {
            let refused = try await harness.response("POST", "/__contract/allow-invalid-requests", body: body)
            #expect(refused.status == 400, "\(body)")
        }
        let bad = try await harness.response("POST", "/api/products", headers: [Harness.token, Harness.json], body: "{}")
        #expect(bad.status == 400, "the checks still hold")
        #expect(try await harness.response("POST", "/__contract/allow-invalid-requests", body: #"{"contract": null}"#).status == 204)
        #expect(try await harness.response("GET", "/__contract/requests?only=invalids").status == 400)
        #expect(try await harness.response("GET", "/__contract/requests?only=invalid").status == 200)
    }

    /// A web page the tester has open can POST to the control API without a preflight
    /// (`text/plain`), and a page whose name its owner rebinds to 127.0.0.1 reads the answers as
    /// its own: control calls from another site's page or under a domain name are refused, and
    /// those a test sends go on.
    @Test func aWebPageCannotDriveTheControlAPI() async throws {
        let harness = try Harness()
        let port = try #require(harness.server.port)
        let forged = try await harness.response(
            "POST", "/__contract/inject", headers: [("Origin", "https://evil.example"), ("Content-Type", "text/plain")], body: #"{"dropConnection": true}"#)
        #expect(forged.status == 403)
        #expect(String(decoding: forged.body, as: UTF8.self).contains("from a web page of another site ('https://evil.example') is refused"))
        #expect(try await harness.response("GET", "/api/products/1").status == 200, "no fault was injected")

        for host in ["rebind.evil.example", "rebind.evil.example:\(port)", "localhost.evil.example", "127.x.evil.example", "127.0.0.evil", "127.0.0.1.evil.example"] {
            let connection = try RawConnection(port: port)
            connection.send("GET /__contract/requests HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(connection.readAnswer()?.head.hasPrefix("HTTP/1.1 403") == true, "\(host)")
        }
        // This machine by any of its names, an address (an Android emulator's 10.0.2.2), or a
        // page of this machine.
        for host in ["localhost:\(port)", "127.0.0.1", "[::1]:\(port)", "10.0.2.2:\(port)", "app.localhost"] {
            let connection = try RawConnection(port: port)
            connection.send("GET /__contract HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(connection.readAnswer()?.head.hasPrefix("HTTP/1.1 200") == true, "\(host)")
        }
        #expect(try await harness.response("DELETE", "/__contract/faults", headers: [("Origin", "http://127.0.0.1:3000")]).status == 204)
    }

    /// A client that writes every field sends `false` or `null` for the faults it does not want:
    /// `{"dropConnection": false}` dropped the connection. Such a member is absent now, and a
    /// flag that is neither true nor false is refused.
    @Test func aFaultFlagThatIsFalseIsRefusedAndNullIsAbsent() async throws {
        let harness = try Harness()
        for body in [#"{"dropConnection": false}"#, #"{"undecodableBody": false}"#, #"{"undecodableBody": "yes"}"#, #"{"dropConnection": 1}"#] {
            #expect(try await harness.response("POST", "/__contract/inject", body: body).status == 400, "\(body)")
        }
        #expect(try await harness.response("GET", "/api/products/1").status == 200, "no fault was injected")
        let status = try await harness.response(
            "POST", "/__contract/inject", body: #"{"status": 503, "delay": null, "dropConnection": false, "undecodableBody": null, "times": 1}"#)
        #expect(status.status == 204)
        #expect(try await harness.response("GET", "/api/products/1").status == 503)
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
    }
}
