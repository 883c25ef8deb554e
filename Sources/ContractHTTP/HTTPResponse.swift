/// What came back: status, every header in order (repeated ones kept), the decoded body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// `HTTP/1.1`, `HTTP/2`…
    public var httpVersion: String
    public var timings: HTTPTimings
    /// The URL of the last request made, which differs from the request's after redirects.
    public var effectiveURL: String
    public var redirects: Int

    public init(
        status: Int, headers: HTTPHeaders, body: [UInt8], httpVersion: String = "HTTP/1.1", timings: HTTPTimings = HTTPTimings(),
        effectiveURL: String = "", redirects: Int = 0
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
        self.timings = timings
        self.effectiveURL = effectiveURL
        self.redirects = redirects
    }

    /// Every value of the header `name` (any case), in order.
    public func values(of name: String) -> [String] {
        headers.values(of: name)
    }

    /// The first value of the header `name` (any case).
    public func value(of name: String) -> String? {
        headers.value(of: name)
    }
}

/// When each phase of a transfer ended, measured from its start (libcurl's `*_TIME_T` infos).
public struct HTTPTimings: Sendable, Equatable {
    public var dnsLookup: Duration = .zero
    public var connect: Duration = .zero
    /// Zero without TLS.
    public var tlsHandshake: Duration = .zero
    public var firstByte: Duration = .zero
    public var total: Duration = .zero

    public init() {}

    /// Each time added to `other`'s: a request's hops, one after another.
    func adding(_ other: HTTPTimings) -> HTTPTimings {
        var sum = self
        sum.dnsLookup += other.dnsLookup
        sum.connect += other.connect
        sum.tlsHandshake += other.tlsHandshake
        sum.firstByte += other.firstByte
        sum.total += other.total
        return sum
    }
}
