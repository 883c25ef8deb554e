import ContractHTTP
import ContractModel

/// Everything `contract verify` was asked to do, independent of how it was asked. ``validate()``
/// says what is wrong with a value; the plan refuses options that do not pass it, so nothing is
/// clamped or guessed later.
public struct VerifyOptions: Sendable {
    /// `http://127.0.0.1:8080` or `https://staging.example.com/v2`: paths are appended to it.
    public var baseURL: String
    public var selection = CaseSelection()
    /// Requests in flight at once, at least 1.
    public var concurrency = 8
    /// Cases that change state (a POST, PUT, PATCH or DELETE among their requests, setup and
    /// teardown included) in flight at once, at least 1 (`--write-concurrency`); nil: as many as
    /// ``concurrency``. For servers that refuse concurrent writes (SQLite's "database is locked").
    public var writeConcurrency: Int?
    /// Extra attempts after a transport error, and after an answer of ``retryStatuses``, at least 0.
    public var retries = 0
    /// Answers after which a setup step or a case's own request is sent again, within ``retries``,
    /// unless it expects them (`--retry-status`): only 408, 429 and 503, by which a server says it did
    /// not act on the request. Empty by default: a complete response is what the case checks.
    public var retryStatuses: Set<Int> = []
    /// Sent with every request, replacing the contract's own headers of the same name
    /// (`--header`). Values may hold `${env:NAME}`; those values, and the whole values of
    /// credential headers (`Authorization`, `Cookie`, `X-Api-Key`…), are secrets: never shown.
    public var extraHeaders: [HeaderField] = []
    /// Assert `format` (uuid, date-time…) in body schemas; the standard only annotates it.
    public var assertsFormats = true
    /// Where `${env:…}` values come from.
    public var environment: [String: String] = [:]
    /// The cases share no state, so none waits for another on the same resources
    /// (`--independent-cases`); by default a case that changes state never runs beside another
    /// case on the same path or a path inside it.
    public var independentCases = false
    /// Findings to count as known (`--baseline`), and when the run fails (`--fail-on`).
    public var baseline: Baseline?
    public var failOn = FailOn.new
    /// The date expiry dates are compared with, `YYYY-MM-DD`; nil is today in UTC.
    public var today: String?

    /// How each transfer behaves; the public fields below read and write it, so callers need no
    /// HTTP types.
    var http = HTTPOptions()

    /// The whole request, connection included; above zero.
    public var timeout: Duration {
        get { http.timeout }
        set { http.timeout = newValue }
    }

    /// Establishing a connection; above zero.
    public var connectTimeout: Duration {
        get { http.connectTimeout }
        set { http.connectTimeout = newValue }
    }

    /// 0: a redirect is a response like any other, checked as such. Otherwise redirects are
    /// followed up to this many times.
    public var maxRedirects: Int {
        get { http.maxRedirects }
        set { http.maxRedirects = newValue }
    }

    /// False only when the user asked for `--insecure`.
    public var verifiesTLS: Bool {
        get { http.verifiesTLS }
        set { http.verifiesTLS = newValue }
    }

    /// A PEM file of CA certificates to trust instead of the system's (`--cacert`).
    public var caCertificatePath: String? {
        get { http.caCertificatePath }
        set { http.caCertificatePath = newValue }
    }

    /// `contract/0.1.0`.
    public var userAgent: String {
        get { http.userAgent }
        set { http.userAgent = newValue }
    }

    public init(baseURL: String) {
        self.baseURL = baseURL
    }
}

/// Which cases run: contract ids or `id/case` names matching a glob, tags, and one shard of n.
public struct CaseSelection: Sendable {
    /// Globs (`*`, `?`) matched against the contract id and against `id/case`; empty selects all.
    public var ids: [String] = []
    /// A case runs when it or its contract has one of these tags; empty selects all.
    public var tags: [String] = []
    public var shard: Shard?

    public init(ids: [String] = [], tags: [String] = [], shard: Shard? = nil) {
        self.ids = ids
        self.tags = tags
        self.shard = shard
    }
}

/// `--shard 2/4`: the second of four disjoint parts whose union is every selected case.
public struct Shard: Sendable, Hashable {
    /// The most parts a run is split in: 1,000. CI matrices stop well below it (GitHub Actions
    /// runs 256 jobs a matrix, GitLab's `parallel` 200), and `contract merge` is given every
    /// part's report, so the bound is what it reads and lists too.
    public static let maxCount = 1_000

    /// From 1 to ``count``.
    public var index: Int
    public var count: Int

    /// Parses `i/n` with 1 <= i <= n.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// Nil unless 1 <= index <= count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    var isValid: Bool { count >= 1 && (1...count).contains(index) }

    /// The shard a case belongs to, from a hash of its name: a case stays in its shard when
    /// others are added or removed, and every machine computes the same split.
    func contains(_ name: String) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(count)) == index - 1
    }
}
