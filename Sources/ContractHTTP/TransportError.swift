/// A transfer that produced no usable response, classified so that callers can tell "the server
/// is unreachable" from "the server misbehaved" from "the response broke the rules we set".
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. A struct over a private enum, as swift-nio and Hummingbird do for their
    /// error codes, so a kind added later breaks no user's exhaustive `switch`: compare with `==`
    /// (`error.kind == .timeout`).
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The words reports print (`timed out`), pinned by their golden files.
        enum Base: String, Sendable, Hashable, CaseIterable {
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

        /// For switches inside this module, which may be exhaustive; users compare with `==`.
        let base: Base

        init(_ base: Base) {
            self.base = base
        }

        /// The URL is malformed or its scheme is not HTTP.
        public static let invalidURL = Kind(.invalidURL)
        public static let dnsFailure = Kind(.dnsFailure)
        /// Nothing listens on the port.
        public static let connectionRefused = Kind(.connectionRefused)
        /// No connection for another reason (a network unreachable, a filtered port).
        public static let connectFailed = Kind(.connectFailed)
        /// The TLS handshake or the certificate check failed.
        public static let tls = Kind(.tls)
        public static let timeout = Kind(.timeout)
        public static let connectionLost = Kind(.connectionLost)
        /// The body went over ``HTTPOptions/maxBodyBytes``.
        public static let bodyTooLarge = Kind(.bodyTooLarge)
        public static let tooManyRedirects = Kind(.tooManyRedirects)
        public static let badContentEncoding = Kind(.badContentEncoding)
        /// A reply that is not HTTP, or breaks the protocol.
        public static let protocolError = Kind(.protocolError)
        public static let cancelled = Kind(.cancelled)
        /// Any failure not classified above; `detail` and `curlCode` say which.
        public static let other = Kind(.other)

        /// What reports print for this kind, e.g. `timed out`.
        public var rawValue: String { base.rawValue }

        /// The kind whose printed name is `rawValue`, nil when no kind has it.
        public init?(rawValue: String) {
            guard let base = Base(rawValue: rawValue) else { return nil }
            self.init(base)
        }

        public var description: String { base.rawValue }
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
        switch kind.base {
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
        switch kind.base {
        case .dnsFailure, .connectionRefused, .connectFailed, .timeout, .connectionLost: true
        default: false
        }
    }

    public var description: String {
        detail.isEmpty ? kind.rawValue : "\(kind.rawValue): \(detail)"
    }
}
