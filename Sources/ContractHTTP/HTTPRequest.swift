/// One header field as sent or received. Names keep their spelling; comparisons ignore case.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public func hasName(_ other: String) -> Bool {
        Self.namesEqual(name.utf8, other.utf8)
    }

    /// Whether two field names are the same. Names are ASCII tokens (RFC 9110), so folding ASCII
    /// letters is enough; this runs for every header of every response checked, where
    /// `lowercased()` allocated two strings.
    static func namesEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { sameIgnoringASCIICase($0, $1) }
    }

    /// Equal bytes, or the same ASCII letter in either case.
    private static func sameIgnoringASCIICase(_ a: UInt8, _ b: UInt8) -> Bool {
        guard a != b else { return true }
        let folded = a | 0x20
        return folded == b | 0x20 && folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
    }
}

/// A request to send. The URL is absolute; the body, when present, is sent as is.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]?

    public init(method: String, url: String, headers: [HTTPHeader] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// How transfers behave. The defaults suit checking an API: no redirects followed (a redirect is
/// a response like any other), TLS verified, compressed bodies decoded, bodies capped.
public struct HTTPOptions: Sendable, Equatable {
    /// The whole transfer, connection included.
    public var timeout: Duration = .seconds(30)
    public var connectTimeout: Duration = .seconds(10)
    /// 0: redirects are returned, not followed. Otherwise followed up to this many times.
    public var maxRedirects = 0
    /// False only when the user asked for `--insecure`.
    public var verifiesTLS = true
    /// A PEM file of CA certificates to trust instead of the system's (`--cacert`).
    public var caCertificatePath: String?
    /// A body larger than this fails the transfer with ``TransportError/Kind/bodyTooLarge``
    /// instead of growing memory.
    public var maxBodyBytes = 32 << 20
    /// Ask for gzip, deflate, br and zstd and decode them.
    public var decodesContent = true
    public var userAgent = "contract"

    public init() {}
}
