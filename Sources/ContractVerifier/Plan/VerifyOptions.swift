import ContractHTTP
import ContractModel

/// Everything `contract verify` was asked to do, independent of how it was asked.
public struct VerifyOptions: Sendable {
    /// `http://127.0.0.1:8080` or `https://staging.example.com/v2`: paths are appended to it.
    public var baseURL: String
    public var selection = CaseSelection()
    /// Requests in flight at once.
    public var concurrency = 8
    /// Extra attempts after a transport error (never after a complete response).
    public var retries = 0
    public var http = HTTPOptions()
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
    public var index: Int
    public var count: Int

    /// Parses `i/n` with 1 <= i <= n.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            return nil
        }
        self.index = index
        self.count = count
    }

    /// The shard a case belongs to, from a hash of its name: a case stays in its shard when
    /// others are added or removed, and every machine computes the same split.
    func contains(_ name: String) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(count)) == index - 1
    }
}
