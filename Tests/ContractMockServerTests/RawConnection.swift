import Foundation
import Testing

#if canImport(Glibc)
import Glibc
private let systemSocket = Glibc.socket
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let systemSocket = Darwin.socket
private let streamSocket = SOCK_STREAM
private let noSignal: Int32 = 0
#endif

/// A connection to the server over a raw socket, for what an HTTP client library will not send
/// (an `Expect` it waits on, an absolute-form target) and to read the answer as it comes. Reads
/// wait at most `guardSeconds`: a hang guard only, far beyond any answer's time.
final class RawConnection {
    let socket: Int32
    private var pending: [UInt8] = []

    init(port: Int, guardSeconds: Int = 600) throws {
        socket = systemSocket(AF_INET, streamSocket, 0)
        try #require(socket >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        var guardTime = timeval(tv_sec: guardSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &guardTime, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, noSignal) }
    }

    /// One answer's head (status line and headers) and its body (by its Content-Length); nil
    /// when the connection closed (or the guard ran out) first.
    func readAnswer() -> (head: String, body: [UInt8])? {
        guard let head = readHead() else { return nil }
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        while pending.count < length { guard fill() else { return nil } }
        let body = Array(pending.prefix(length))
        pending.removeFirst(length)
        return (head, body)
    }

    /// Up to the blank line that ends a head.
    func readHead() -> String? {
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: end) {
                let head = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
                pending.removeFirst(range.upperBound)
                return head
            }
            guard fill() else { return nil }
        }
    }

    /// Everything until the server closes the connection.
    func readToEnd() -> [UInt8] {
        while fill() {}
        defer { pending.removeAll() }
        return pending
    }

    /// Sends `bytes` on a new connection and reads until the server closes it.
    static func exchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let connection = try RawConnection(port: port)
        connection.send(String(decoding: bytes, as: UTF8.self))
        return connection.readToEnd()
    }

    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        pending += buffer[0..<count]
        return true
    }
}

