import ContractJSON
import ContractRequests

extension MockServer {
    /// A request the server received, for assertions and for the journal: what was sent, and
    /// what the server made of it.
    public struct Received: Sendable {
        /// 1 for the first request since the server started (or was reset).
        public var sequence: Int
        public var method: String
        /// The path as sent, percent-encoded, without the query.
        public var path: String
        /// The query's items, decoded, in order.
        public var query: [WireRequest.Field]
        /// The headers as sent, in order. Copied out of NIO's, whose storage the parser reserves
        /// for many headers: a full journal of those took a third more memory.
        public var headers: [WireRequest.Field]
        /// The body's first ``MockServer/Options/journalBodyLimit`` bytes; nil when none was sent.
        public var body: [UInt8]?
        /// The body's whole size.
        public var bodyByteCount: Int
        /// The fixture that answered (`products.get/found`), or nil when none did.
        public var fixture: String?
        /// The status answered; nil when the connection was dropped instead.
        public var status: Int?
        /// How the request breaks its endpoint's description; empty when it keeps it.
        public var violations: [RequestViolation] = []
        /// Why no fixture answered, naming the nearest route; nil when one did.
        public var mismatch: String?
        /// The faults applied to the answer (`delay(2.0 seconds)`).
        public var faults: [String] = []
        /// It broke its contract and was answered by its fixture anyway (lenient, or allowed).
        public var answeredAnyway = false
    }

    /// The requests received, oldest first: at most `limit` of them, holding at most `byteLimit`
    /// bytes of text (paths, queries, headers, bodies) together, the oldest let go first. A
    /// server that runs all day keeps its newest requests and counts the ones it let go; clients
    /// that send 80 KiB of headers each fill it sooner, not bigger.
    struct Journal: Sendable {
        let limit: Int
        let byteLimit: Int
        private(set) var entries: [Received] = []
        private var sizes: [Int] = []
        private var start = 0
        private var bytes = 0
        private(set) var dropped = 0
        private(set) var count = 0

        init(limit: Int, byteLimit: Int) {
            self.limit = max(1, limit)
            self.byteLimit = max(1, byteLimit)
        }

        mutating func append(_ entry: Received) {
            count += 1
            let size = Self.size(of: entry)
            entries.append(entry)
            sizes.append(size)
            bytes += size
            // The newest entry always stays, however big.
            while entries.count - start > 1, entries.count - start > limit || bytes > byteLimit {
                bytes -= sizes[start]
                start += 1
                dropped += 1
            }
            // Compacted once half is behind the start, so appending stays constant time.
            if start > 0, start * 2 >= entries.count {
                entries.removeFirst(start)
                sizes.removeFirst(start)
                start = 0
            }
        }

        var all: ArraySlice<Received> { entries[start...] }

        /// The text an entry holds, and a little for the rest of it.
        static func size(of entry: Received) -> Int {
            var size = 256 + entry.path.utf8.count + (entry.body?.count ?? 0) + (entry.mismatch?.utf8.count ?? 0)
            for field in entry.query { size += 32 + field.name.utf8.count + field.value.utf8.count }
            for field in entry.headers { size += 32 + field.name.utf8.count + field.value.utf8.count }
            for violation in entry.violations {
                size += 128 + violation.message.utf8.count + (violation.name?.utf8.count ?? 0) + (violation.schemaLocation?.utf8.count ?? 0)
                size += violation.pointer.tokens.reduce(0) { $0 + 8 + $1.utf8.count }
            }
            return size
        }
    }
}

extension MockServer.Received {
    /// The entry as the control API lists it. Values that may be secrets (an `Authorization`
    /// header, an `api_key` item) are left out, since journals end up in CI logs; the Swift API's
    /// ``MockServer/requests`` keeps them, in the test's own process.
    public var json: JSONValue {
        func fields(_ items: [WireRequest.Field]) -> JSONValue {
            .array(items.map { field in
                let value: JSONValue = CredentialNames.mayBeCredential(field.name) ? "(not shown: it may be a secret)" : .string(field.value)
                return .object(JSONObject([.init(key: "name", value: .string(field.name)), .init(key: "value", value: value)]))
            })
        }
        var members: [JSONObject.Member] = [
            .init(key: "sequence", value: .number(JSONNumber(sequence))), .init(key: "method", value: .string(method)),
            .init(key: "path", value: .string(path)), .init(key: "query", value: fields(query)), .init(key: "headers", value: fields(headers)),
        ]
        if let body {
            let text = String(decoding: body, as: UTF8.self)
            members.append(.init(key: "body", value: .string(text)))
            members.append(.init(key: "bodyBytes", value: .number(JSONNumber(bodyByteCount))))
            if body.count < bodyByteCount { members.append(.init(key: "bodyClipped", value: true)) }
        }
        if let fixture { members.append(.init(key: "fixture", value: .string(fixture))) }
        members.append(.init(key: "status", value: status.map { .number(JSONNumber($0)) } ?? .null))
        if !violations.isEmpty { members.append(.init(key: "violations", value: .array(violations.map(RequestProblem.json)))) }
        if let mismatch { members.append(.init(key: "mismatch", value: .string(mismatch))) }
        if !faults.isEmpty { members.append(.init(key: "faults", value: .array(faults.map { .string($0) }))) }
        if answeredAnyway { members.append(.init(key: "answeredAnyway", value: true)) }
        return .object(JSONObject(members))
    }
}
