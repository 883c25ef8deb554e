import ContractHTTP
import Foundation
import TestSupport
import Testing

/// TLS options against a real TLS server on loopback (`openssl s_server` with a certificate made
/// for the test): verification on by default, `--insecure` and `--cacert` as the user asks.
@Suite(.serialized)
struct TLSTests {
    /// A self-signed certificate for 127.0.0.1 and a TLS server using it; stopped when released.
    final class TLSServer {
        let folder: URL
        let port: Int
        let process: ChildProcess

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ], in: folder)
            port = try LoopbackHTTPServer.closedPort()
            process = try ChildProcess(
                "/usr/bin/env", ["openssl", "s_server", "-quiet", "-accept", "127.0.0.1:\(port)", "-cert", "cert.pem", "-key", "key.pem", "-www"],
                in: folder.path)
            // Ready when it accepts connections: a generous deadline, since on a loaded machine
            // starting openssl may take seconds (it only ends the wait when the server never comes).
            let deadline = Date().addingTimeInterval(600)
            while Date() < deadline {
                if Self.accepts(port) { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            process.signal(SIGKILL)
            process.wait()
            throw ServerStartFailed()
        }

        deinit {
            // s_server does not always stop on SIGTERM while it holds a connection.
            process.signal(SIGKILL)
            process.wait()
        }

        var url: String { "https://127.0.0.1:\(port)/" }
        var certificate: String { folder.appendingPathComponent("cert.pem").path }

        static func openssl(_ arguments: [String], in folder: URL) throws {
            guard try ChildProcess("/usr/bin/env", ["openssl"] + arguments, in: folder.path).wait() == 0 else { throw ServerStartFailed() }
        }

        static func accepts(_ port: Int) -> Bool {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        }
    }

    struct ServerStartFailed: Error {}

    let client = HTTPClient()

    func options(_ configure: (inout HTTPOptions) -> Void = { _ in }) -> HTTPOptions {
        var options = HTTPOptions()
        options.timeout = .seconds(10)
        configure(&options)
        return options
    }

    @Test func anUntrustedCertificateIsRefusedByDefault() async throws {
        let server = try TLSServer()
        let result = await client.send(HTTPRequest(method: "GET", url: server.url), options: options())
        guard case .failure(let error) = result else {
            Issue.record("expected a TLS failure")
            return
        }
        #expect(error.kind == .tls)
        #expect(error.isUnreachable)
    }

    @Test func insecureSkipsVerification() async throws {
        let server = try TLSServer()
        let response = try await client.send(HTTPRequest(method: "GET", url: server.url), options: options { $0.verifiesTLS = false }).get()
        #expect(response.status == 200)
    }

    @Test func aPrivateCertificateAuthorityIsTrustedWhenGiven() async throws {
        let server = try TLSServer()
        let response = try await client.send(
            HTTPRequest(method: "GET", url: server.url), options: options { $0.caCertificatePath = server.certificate }).get()
        #expect(response.status == 200)
        #expect(response.timings.tlsHandshake > .zero)
    }
}
