/// A transfer that produced no usable response, classified so that callers can tell "the server
/// is unreachable" from "the server misbehaved" from "the response broke the rules we set".
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case invalidURL = "invalid URL"
        case dnsFailure = "DNS lookup failed"
        case connectionRefused = "connection refused"
        case connectFailed = "could not connect"
        case tls = "TLS failure"
        case timeout = "timed out"
        case connectionLost = "connection lost before the response was complete"
        case bodyTooLarge = "body larger than the limit"
        case tooManyRedirects = "too many redirects"
        case badContentEncoding = "could not decode the content encoding"
        case protocolError = "malformed HTTP response"
        case cancelled = "cancelled"
        case other = "transfer failed"
    }

    public var kind: Kind
    /// libcurl's own explanation, which names the host, port or certificate problem.
    public var detail: String
    /// The libcurl error code, for support requests.
    public var curlCode: Int

    public init(kind: Kind, detail: String, curlCode: Int = 0) {
        self.kind = kind
        self.detail = detail
        self.curlCode = curlCode
    }

    /// True when no request could reach a server at all: a CI job then exits 3, not 1.
    public var isUnreachable: Bool {
        switch kind {
        case .dnsFailure, .connectionRefused, .connectFailed, .tls, .invalidURL: true
        default: false
        }
    }

    /// How long to wait before trying again after `attempts` failed tries: a short, growing pause,
    /// so a server restarting or a saturated listen queue gets a moment.
    public static func retryPause(after attempts: Int) -> Duration {
        .milliseconds(100 * attempts)
    }

    /// Worth retrying (`--retries`): the request may not have reached the server, or its answer
    /// was lost on the way. Never a complete but wrong response.
    public var isTransient: Bool {
        switch kind {
        case .dnsFailure, .connectionRefused, .connectFailed, .timeout, .connectionLost: true
        default: false
        }
    }

    public var description: String {
        detail.isEmpty ? kind.rawValue : "\(kind.rawValue): \(detail)"
    }
}
