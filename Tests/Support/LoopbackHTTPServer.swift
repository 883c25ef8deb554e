import Foundation

#if canImport(Glibc)
import Glibc
private let systemSend = Glibc.send
private let systemSocket = Glibc.socket
private let systemListen = Glibc.listen
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private typealias SocketLinger = Glibc.linger
#elseif canImport(Darwin)
import Darwin
private let systemSend = Darwin.send
private let systemSocket = Darwin.socket
private let systemListen = Darwin.listen
private let streamSocket = SOCK_STREAM
private let MSG_NOSIGNAL: Int32 = 0  // Darwin: SIGPIPE is ignored process-wide below
private typealias SocketLinger = Darwin.linger
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for tests, written on raw sockets so that a test controls
/// every byte, broken ones included: responses that never come, connections reset in the middle
/// of a body, truncated chunked bodies, redirect loops, slow trickles. One thread per connection,
/// so a connection that hangs never blocks another.
public final class LoopbackHTTPServer: @unchecked Sendable {
    public enum Behavior: Sendable {
        /// A complete response; `Content-Length` is added unless the headers set a length or an encoding.
        case respond(status: Int, headers: [(String, String)], body: [UInt8])
        /// A JSON response with `Content-Type: application/json`.
        case json(status: Int, String)
        /// Reads the request and never answers; the connection stays open until the client gives up.
        case neverAnswer
        /// Announces `declaredLength` bytes, sends `sent`, then resets the connection.
        case resetMidBody(declaredLength: Int, sent: [UInt8])
        /// A chunked body whose terminating zero-length chunk never comes.
        case truncatedChunked(chunks: [[UInt8]])
        /// `302` to the same path, forever.
        case redirectLoop
        /// The body, `bytesPerInterval` at a time.
        case trickle(body: [UInt8], bytesPerInterval: Int, interval: Duration)
        /// Exactly these bytes, then the connection closes.
        case raw([UInt8])
    }

    public struct ReceivedRequest: Sendable {
        public let method: String
        public let target: String
        public let headers: [(String, String)]
        public let body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let route: @Sendable (ReceivedRequest) -> Behavior
    private let lock = NSLock()
    private var connections: Set<Int32> = []
    private var received: [ReceivedRequest] = []
    private var stopped = false
    /// Set by the accept loop when it closes the listener, under `lock`.
    private var listenerClosed = false

    /// Starts listening on a port the kernel picks; `route` chooses the behaviour per request.
    public convenience init(route: @escaping @Sendable (_ method: String, _ target: String) -> Behavior) throws {
        try self.init(routeWithBody: { method, target, _ in route(method, target) })
    }

    /// A server whose `route` also reads each request's body (a stateful one stores what it is sent).
    public convenience init(routeWithBody route: @escaping @Sendable (_ method: String, _ target: String, _ body: [UInt8]) -> Behavior) throws {
        try self.init(routeRequest: { route($0.method, $0.target, $0.body) })
    }

    /// A server whose `route` reads the whole request, headers too (conditional requests).
    public init(routeRequest route: @escaping @Sendable (ReceivedRequest) -> Behavior) throws {
        self.route = route
        signal(SIGPIPE, SIG_IGN)
        let (socket, port) = try Self.listen()
        listener = socket
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    /// The requests received so far, in arrival order.
    public var requests: [ReceivedRequest] {
        lock.withLock { received }
    }

    /// Closes the listener and every open connection; idempotent.
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            // Shut down, not closed: the accept loop closes the listener when it sees the
            // shutdown, so the number is never reused while it may still call accept(2) on it.
            if !listenerClosed { _ = shutdown(listener, Int32(SHUT_RDWR)) }
            // Under the lock: a connection's thread closes its socket only after taking it out of
            // the set under this lock, so every socket here is still open, and its number cannot
            // belong to another test's socket by now.
            for socket in connections { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// A port on which nothing listens, for "connection refused".
    public static func closedPort() throws -> Int {
        let (socket, port) = try listen()
        close(socket)
        return port
    }

    // MARK: Connections

    private func closeListener() {
        lock.withLock {
            listenerClosed = true
            close(listener)
        }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                // The listener was shut down (or failed): this loop is its last user.
                closeListener()
                return
            }
            let accepted = lock.withLock {
                guard !stopped else { return false }
                connections.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                closeListener()
                return
            }
            let thread = Thread { [self] in
                serve(connection)
                lock.withLock { _ = connections.remove(connection) }
                close(connection)
            }
            thread.start()
        }
    }

    private func serve(_ socket: Int32) {
        // A TLS handshake (record type 0x16) gets the plain-text 400 an HTTP-only server sends.
        var first: UInt8 = 0
        if recv(socket, &first, 1, Int32(MSG_PEEK)) == 1, first == 0x16 {
            _ = send(socket, Self.head(400, [("Content-Length", "0"), ("Connection", "close")]))
            return
        }
        var reader = RequestReader(socket: socket)
        while let request = reader.next() {
            lock.withLock { received.append(request) }
            guard perform(route(request), request: request, on: socket) else { return }
        }
    }

    /// Sends the behaviour's bytes; true when the connection may serve another request.
    private func perform(_ behavior: Behavior, request: ReceivedRequest, on socket: Int32) -> Bool {
        switch behavior {
        case .respond(let status, let headers, let body):
            let framed = headers.contains { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }
            let all = framed ? headers : headers + [("Content-Length", String(body.count))]
            return send(socket, Self.head(status, all) + body)
        case .json(let status, let text):
            return perform(.respond(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8)), request: request, on: socket)
        case .neverAnswer:
            var scratch = [UInt8](repeating: 0, count: 1024)
            while recv(socket, &scratch, scratch.count, 0) > 0 {}
            return false
        case .resetMidBody(let declared, let sent):
            _ = send(socket, Self.head(200, [("Content-Type", "application/json"), ("Content-Length", String(declared))]) + sent)
            var linger = SocketLinger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<SocketLinger>.size))
            return false
        case .truncatedChunked(let chunks):
            var bytes = Self.head(200, [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")])
            for chunk in chunks { bytes += Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + Array("\r\n".utf8) }
            _ = send(socket, bytes)
            return false
        case .redirectLoop:
            return send(socket, Self.head(302, [("Location", request.target), ("Content-Length", "0")]))
        case .trickle(let body, let step, let interval):
            guard send(socket, Self.head(200, [("Content-Type", "application/json"), ("Content-Length", String(body.count))])) else { return false }
            var offset = 0
            while offset < body.count {
                Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
                let end = min(body.count, offset + max(1, step))
                guard send(socket, Array(body[offset..<end])) else { return false }
                offset = end
            }
            return true
        case .raw(let bytes):
            _ = send(socket, bytes)
            return false
        }
    }

    private func send(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemSend(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func head(_ status: Int, _ headers: [(String, String)]) -> [UInt8] {
        let reason = [200: "OK", 201: "Created", 204: "No Content", 302: "Found", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
            500: "Internal Server Error", 503: "Service Unavailable"][status] ?? "Status"
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    private static func listen() throws -> (Int32, Int) {
        let socket = systemSocket(AF_INET, streamSocket, 0)
        guard socket >= 0 else { throw ServerError("socket() failed: errno \(errno)") }
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        guard bound == 0, systemListen(socket, 128) == 0 else {
            close(socket)
            throw ServerError("bind or listen on 127.0.0.1 failed: errno \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Reads requests off one connection: request line, headers, a `Content-Length` body.
private struct RequestReader {
    let socket: Int32
    var buffer: [UInt8] = []

    init(socket: Int32) {
        self.socket = socket
    }

    mutating func next() -> LoopbackHTTPServer.ReceivedRequest? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int? = nil
        while true {
            if let end = Self.find(separator, in: buffer) {
                headEnd = end
                break
            }
            guard fill() else { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
        let bodyStart = headEnd + 4
        while buffer.count < bodyStart + length {
            guard fill() else { return nil }
        }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        return LoopbackHTTPServer.ReceivedRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }
}
