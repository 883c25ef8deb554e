import ContractHTTP
import ContractModel
import Foundation

/// A server's "not now": an answer by which it says it did not act on the request and that the
/// client may ask again (RFC 9110: 408 Request Timeout, 503 Service Unavailable; RFC 6585: 429 Too
/// Many Requests). Prefect answers 503 to a write that met SQLite's lock, and its own client asks
/// again; a rate limiter answers 429.
///
/// A setup step and the case's own request are asked again only for the statuses the user named
/// (`--retry-status`), within `--retries`, which transport errors and refusals share: else the
/// answer is what the step or the case is checked on, whatever it is (a proxy may answer 503 to a
/// request its server did carry out, and a second create would go unnoticed). Teardown steps
/// clean up and check nothing of the contract, so one answered 429 or 503 is always asked again,
/// a few times. Never when the step or the case expects that status: it is then its answer.
struct Refusal: Sendable {
    /// The statuses `--retry-status` may name: each says the server did not act on the request.
    /// 500, 502 and 504 do not (the request may have been carried out), so they are never retried.
    static let retryable: Set<Int> = [408, 429, 503]
    /// What a teardown step is always asked again after.
    static let teardownStatuses: Set<Int> = [429, 503]
    /// Further tries for a teardown step refused each time.
    static let teardownTries = 3
    /// The longest wait a `Retry-After` may ask for a request the user named the status of; a
    /// server that asks for longer is not asked again, and its answer stands (else one request
    /// could stall a run for as long as the server likes).
    static let longestAskedWait: Duration = .seconds(10)
    /// The same for a teardown step, which the user did not ask to wait for: a server in
    /// maintenance answering `503` with `Retry-After: 10` to everything would hold every case's
    /// cleanup half a minute.
    static let longestTeardownWait: Duration = .seconds(1)
    /// `--retries` beyond this is refused: a hundred tries of one request, each after up to 10 s,
    /// is already far beyond what a run can wait for.
    static let maxRetries = 100

    /// Further tries of a setup step or a case's own request (`--retries`), transport errors
    /// and refusals together.
    let tries: Int
    /// The statuses of `--retry-status`.
    let statuses: Set<Int>
    /// What a teardown step is asked again after: ``teardownStatuses`` and ``statuses``, joined
    /// once here rather than for every teardown response.
    let teardownRefusals: Set<Int>

    init(tries: Int, statuses: Set<Int>) {
        self.tries = tries
        self.statuses = statuses
        teardownRefusals = Self.teardownStatuses.union(statuses)
    }

    /// A request asked again after a refusal: the pause before it, the sends of it before (their
    /// count goes on), and how many of their answers were refusals (for the message).
    struct Again: Sendable {
        var pause: Duration = .zero
        var attempts = 0
        var refusals = 0
    }

    /// The pause before asking a setup step or a case's own request again (see ``pause(after:statuses:expected:tries:limit:longest:)``).
    func pause(after response: HTTPResponse, expected: StatusExpectation, attempts: Int) -> Duration? {
        guard !statuses.isEmpty else { return nil }
        return Self.pause(after: response, statuses: statuses, expected: expected, tries: attempts - 1, limit: tries, longest: Self.longestAskedWait)
    }

    /// The pause before asking a teardown step again: after 429 or 503 always, a few times, and
    /// after a status of `--retry-status` as for any request.
    func teardownPause(after response: HTTPResponse, expected: StatusExpectation, refusals: Int) -> Duration? {
        let named = statuses.contains(response.status)
        return Self.pause(
            after: response, statuses: teardownRefusals, expected: expected, tries: refusals,
            limit: named ? max(Self.teardownTries, tries) : Self.teardownTries, longest: named ? Self.longestAskedWait : Self.longestTeardownWait)
    }

    /// Said after a step's finding when the server refused the step before its last answer.
    static func told(_ refusals: Int, last status: Int) -> String {
        guard refusals > 0 else { return "" }
        if retryable.contains(status) { return " (refused each of the \(refusals + 1) times it was sent)" }
        return refusals == 1 ? " (sent again after a refusal)" : " (sent again after \(refusals) refusals)"
    }

    /// The pause before asking `response`'s request again: when its status is one of `statuses`
    /// that `expected` does not accept, `tries` (further tries made so far) is below `limit`,
    /// and the server asks for no longer than `longest`. Nil when the answer stands.
    static func pause(
        after response: HTTPResponse, statuses: Set<Int>, expected: StatusExpectation, tries: Int, limit: Int, longest: Duration
    ) -> Duration? {
        guard tries < limit, statuses.contains(response.status), !expected.accepts(response.status) else { return nil }
        switch response.value(of: "Retry-After").map({ askedWait($0, now: Date()) }) {
        case .after(let wait)?: return wait <= longest ? wait : nil
        case .unreadable?, nil: return defaultPause(tries + 1)
        }
    }

    /// What a `Retry-After` asks for.
    enum AskedWait: Equatable {
        case after(Duration)
        /// Neither delta-seconds nor an HTTP-date: the default pause.
        case unreadable
    }

    /// `Retry-After` as delta-seconds (`120`, of any length: a number too long to read asks for
    /// longer than anyone waits) or an HTTP-date (RFC 9110 §10.2.3: a date past is no wait).
    static func askedWait(_ value: String, now: Date) -> AskedWait {
        let text = value.trimmingASCIISpaces
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard text.utf8.count <= 9, let seconds = Int(text) else { return .after(.seconds(Int(Int32.max))) }
            return .after(.seconds(seconds))
        }
        guard let date = httpDate(String(text)) else { return .unreadable }
        let seconds = date.timeIntervalSince(now)
        return .after(seconds <= 0 ? .zero : .milliseconds(Int64(min(seconds, Double(Int32.max)) * 1000)))
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form senders must use.
    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }

    /// A short, growing pause: 250 ms, then 500 ms, 750 ms, and 1 s from then on; a lock held by
    /// another transaction, or a rate limit's window, has a moment to pass, and many tries stay
    /// within seconds of each other.
    static func defaultPause(_ attempt: Int) -> Duration {
        .milliseconds(250 * min(max(attempt, 1), 4))
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
