import ContractHTTP
import ContractModel

/// A server's "not now": an answer by which it says it did not act on the request and that the
/// client may ask again (RFC 9110: 408 Request Timeout, 503 Service Unavailable; RFC 6585: 429 Too
/// Many Requests). Prefect answers 503 to a write that met SQLite's lock, and its own client asks
/// again; a rate limiter answers 429.
///
/// Setup and teardown steps prepare and clean up; they check nothing of the contract, so a step
/// answered 429 or 503 is asked again, a few times, after a pause. A case's own request is asked
/// again only for the statuses the user named (`--retry-status`), within `--retries`: else its
/// answer is what the case checks, whatever it is.
struct Refusal: Sendable {
    /// The statuses `--retry-status` may name: each says the server did not act on the request.
    /// 500, 502 and 504 do not (the request may have been carried out), so they are never retried.
    static let retryable: Set<Int> = [408, 429, 503]
    /// What a setup or teardown step is asked again after.
    static let stepStatuses: Set<Int> = [429, 503]
    /// Further tries for a step refused each time.
    static let stepTries = 3
    /// The longest `Retry-After` waited for: a server that asks for longer is not asked again, and
    /// its answer stands (a run would otherwise stall on one request).
    static let longestWait: Duration = .seconds(10)

    /// Further tries of a case's own request (`--retries`) for `statuses` (`--retry-status`).
    let caseTries: Int
    let caseStatuses: Set<Int>

    /// The pause before asking `response`'s request again, when it is a refusal of `statuses` not
    /// accepted by `expected` and `tries` (further tries made so far) is below `limit`; nil when
    /// its answer stands.
    static func pause(
        after response: HTTPResponse, statuses: Set<Int>, expected: StatusExpectation, tries: Int, limit: Int
    ) -> Duration? {
        guard tries < limit, statuses.contains(response.status), !expected.accepts(response.status) else { return nil }
        guard let asked = response.value(of: "Retry-After") else { return defaultPause(tries + 1) }
        guard let seconds = retryAfterSeconds(asked) else { return defaultPause(tries + 1) }
        let wait = Duration.seconds(seconds)
        return wait <= longestWait ? wait : nil
    }

    /// `Retry-After` as delta-seconds (`120`); nil for an HTTP-date or anything else, which gets
    /// the default pause.
    static func retryAfterSeconds(_ value: String) -> Int? {
        let digits = value.trimmingASCIISpaces
        guard !digits.isEmpty, digits.utf8.count <= 9, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(digits)
    }

    /// A short, growing pause: 250 ms, then 500 ms, then 750 ms; a lock held by another
    /// transaction, or a rate limit's window, has a moment to pass.
    static func defaultPause(_ attempt: Int) -> Duration {
        .milliseconds(250 * attempt)
    }
}

extension String {
    fileprivate var trimmingASCIISpaces: Substring {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return self[first...last]
    }
}
