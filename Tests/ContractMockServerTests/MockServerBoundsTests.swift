import ContractMockServer
import Foundation
import Testing

/// What one local client can make the server hold: a request stopped halfway, bodies on many
/// connections at once, and connections by the hundred. Each test checks what the server does
/// (closes, refuses, goes on); waits are hang guards, far beyond the bounds' times.
struct MockServerBoundsTests {
    typealias Harness = MockServerHarness

    /// A connection that sent its headers and part of its body, then nothing, held that body's
    /// bytes for as long as it stayed open: the idle timeout closes it, as it closes one that
    /// sent nothing.
    @Test func aRequestStoppedHalfwayIsClosedAfterTheIdleTimeout() throws {
        var options = MockServer.Options()
        options.idleTimeout = .milliseconds(200)
        let harness = try Harness(options: options)
        let port = try #require(harness.server.port)
        for partial in [
            "POST /api/products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\"",
            "POST /api/products HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"na",
            "GET /api/products/1 HTTP/1.1\r\nHost: x\r\nAccept:",
        ] {
            let connection = try RawConnection(port: port, guardSeconds: 60)
            connection.send(partial)
            // Closed by the server (the read ends with no answer), not left open to the guard.
            let started = Date()
            #expect(connection.readToEnd().isEmpty, "\(partial)")
            #expect(Date().timeIntervalSince(started) < 50, "closed by the idle timeout, not by the test's guard")
        }
        #expect(try RawConnection.exchange(port: port, Array("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)).count > 0)
    }

    /// Bodies being received on all connections together are bounded: past the bound a request
    /// gets a 503 problem, and once the held bodies are let go the server takes bodies again.
    @Test func bodiesHeldOnManyConnectionsShareOneBound() throws {
        var options = MockServer.Options()
        options.maxBodyBytes = 600_000
        options.maxBodiesBytes = 1_000_000
        options.cors = true
        let harness = try Harness(options: options)
        let port = try #require(harness.server.port)
        let head = "POST /api/products HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 600000\r\n\r\n"
        let holding = try RawConnection(port: port, guardSeconds: 60)
        holding.send(head + String(repeating: " ", count: 590_000))
        // The second body cannot fit beside the first; the page that sent it may read why.
        let second = try RawConnection(port: port, guardSeconds: 60)
        second.send(head.replacingOccurrences(of: "Host: x\r\n", with: "Host: x\r\nOrigin: http://app.example\r\n") + String(repeating: " ", count: 590_000))
        let refused = try #require(second.readAnswer())
        #expect(refused.head.hasPrefix("HTTP/1.1 503"), "\(refused.head)")
        #expect(refused.head.lowercased().contains("access-control-allow-origin: http://app.example"), "\(refused.head)")
        #expect(String(decoding: refused.body, as: UTF8.self).contains("the server holds 1000000 bytes of request bodies being received or answered already"))
        // Journaled as any answer, so the test that got it can see why.
        let journaled = try #require(harness.server.requests.last)
        #expect(journaled.status == 503 && journaled.path == "/api/products")
        #expect(journaled.bodyByteCount > 0, "the bytes that had come")
        #expect(journaled.mismatch?.contains("1000000 bytes of request bodies") == true, "\(String(describing: journaled.mismatch))")
        // The first finishes; its bytes go back, and a body fits again.
        holding.send(String(repeating: " ", count: 10_000 - 2) + "{}")
        #expect(holding.readAnswer()?.head.hasPrefix("HTTP/1.1 400") == true, "answered (a body without a name breaks the contract)")
        let third = try RawConnection(port: port, guardSeconds: 60)
        third.send(head + String(repeating: " ", count: 600_000 - 2) + "{}")
        #expect(third.readAnswer()?.head.hasPrefix("HTTP/1.1 400") == true)
    }

    /// Connections past the bound are closed as they come; those within it are answered.
    @Test func connectionsPastTheBoundAreClosedAndTheOthersAnswered() throws {
        var options = MockServer.Options()
        options.maxConnections = 16
        let harness = try Harness(options: options)
        let port = try #require(harness.server.port)
        let open = try (0..<16).map { _ in try RawConnection(port: port, guardSeconds: 60) }
        // Each of the first answers, so each is open on the server's side.
        for connection in open {
            connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(connection.readAnswer()?.head.hasPrefix("HTTP/1.1 200") == true)
        }
        let past = try RawConnection(port: port, guardSeconds: 60)
        past.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(past.readToEnd().isEmpty, "closed without an answer")
        // One closes; a new connection is taken again.
        _ = open.first.map { shutdown($0.socket, Int32(SHUT_RDWR)) }
        var answered = false
        for _ in 0..<100 where !answered {
            let again = try RawConnection(port: port, guardSeconds: 60)
            again.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answered = again.readAnswer()?.head.hasPrefix("HTTP/1.1 200") == true
            if !answered { usleep(20_000) }
        }
        #expect(answered)
    }

    /// A client that shuts its sending side once its request is sent (`nc -N`, some HTTP/1.0
    /// tools) still gets its answer, from a contract (checked on the thread pool) or the control API.
    @Test func aClientThatHalfClosesAfterSendingGetsItsAnswer() throws {
        let harness = try Harness()
        let port = try #require(harness.server.port)
        for target in Array(repeating: ["/api/products/1", "/health", "/__contract"], count: 10).joined() {
            let connection = try RawConnection(port: port, guardSeconds: 60)
            connection.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(shutdown(connection.socket, Int32(SHUT_WR)) == 0)
            let answer = connection.readAnswer()
            #expect(answer?.head.hasPrefix("HTTP/1.1 200") == true, "\(target): \(answer?.head ?? "no answer")")
        }
    }
}
