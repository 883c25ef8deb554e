import CCurl
import Foundation

/// Drives every transfer of one ``HTTPClient`` through a libcurl multi handle on a thread of its
/// own: libcurl handles are not thread-safe, so only this thread touches them. Other threads
/// hand work over under a lock and wake the loop with `curl_multi_wakeup`.
final class CurlEngine: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    // Shared with submitting threads, under `lock`.
    private var pending: [CurlTransfer] = []
    private var cancellations: [CurlTransfer] = []
    private var stopping = false
    private var newFeeders: [CurlFeeder] = []
    /// True while the loop sleeps in `curl_multi_poll`: only then does new work need a wakeup
    /// (a syscall), so a busy loop picks work up without one.
    private var sleeping = false
    // The loop thread's own state.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var feeders: [CurlFeeder] = []
    /// Easy handles kept for reuse: creating one per request costs more than the request on
    /// loopback. Each with the options it is still configured with when its last transfer was a
    /// plain GET (see ``CurlTransfer/isPlainGET``); the others were reset.
    private var idle: [(handle: UnsafeMutableRawPointer, configuredFor: HTTPOptions?)] = []
    private static let maxIdleHandles = 256
    private static let maxCachedConnections = 256

    init() {
        CurlGlobal.ensureInitialized()
        multi = curl_multi_init()
        // By default the connection cache holds 4 per handle currently added; handles come and go
        // here, so the cache would shrink between transfers and close live connections.
        ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, Self.maxCachedConnections)
        let thread = Thread { [self] in run() }
        thread.name = "contract.http"
        thread.start()
    }

    func submit(_ transfer: CurlTransfer) {
        handOver { pending.append(transfer) }
    }

    func cancel(_ transfer: CurlTransfer) {
        handOver { cancellations.append(transfer) }
    }

    /// Keeps up to `feeder.width` of its transfers in flight until it has no more; see ``CurlFeeder``.
    func attach(_ feeder: CurlFeeder) {
        handOver { newFeeders.append(feeder) }
    }

    /// Makes a sleeping loop pull from its feeders again.
    func wake() {
        handOver {}
    }

    /// Records work for the loop under the lock, and wakes the loop only if it sleeps.
    private func handOver(_ record: () -> Void) {
        let wake = lock.withLock {
            record()
            return sleeping
        }
        if wake { curl_multi_wakeup(multi) }
    }

    /// Ends the loop: transfers still running resume as cancelled, and every handle is freed.
    func shutdown() {
        // The wakeup goes out under the lock: the loop reads `stopping` under it and then frees
        // the multi handle, so a wakeup sent after the lock was let go could reach a freed handle.
        lock.withLock {
            stopping = true
            curl_multi_wakeup(multi)
        }
    }

    private func run() {
        while true {
            let (started, cancelled, attached, stop) = lock.withLock {
                defer { pending.removeAll(); cancellations.removeAll(); newFeeders.removeAll() }
                return (pending, cancellations, newFeeders, stopping)
            }
            feeders += attached
            if stop {
                for transfer in started { transfer.cancel() }
                tearDown()
                return
            }
            for transfer in started { start(transfer) }
            for transfer in cancelled { abort(transfer) }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            // Fed transfers start here, on this thread, the moment others finish.
            let refilled = refillFromFeeders()
            // Sleeps until a socket is ready, a timeout of libcurl's is due, or a wakeup arrives;
            // work that arrived since the top of the loop is taken first.
            let idle = lock.withLock {
                sleeping = !refilled && pending.isEmpty && cancellations.isEmpty && newFeeders.isEmpty && !stopping
                return sleeping
            }
            if idle {
                curl_multi_poll(multi, nil, 0, Int32(pollTimeout()), nil)
                lock.withLock { sleeping = false }
            }
        }
    }

    /// False when the transfer failed before it could start (it has been told why).
    @discardableResult
    private func start(_ transfer: CurlTransfer) -> Bool {
        guard let (handle, configuredFor) = idle.popLast() ?? curl_easy_init().map({ ($0, nil) }) else {
            transfer.fail(TransportError(kind: .other, detail: "libcurl could not create a handle"))
            return false
        }
        var configured = configuredFor != nil
        // A handle kept configured for other options is reset first: options set only under a
        // condition (a CA file, content decoding) would otherwise stay from the transfer before.
        if let configuredFor, configuredFor != transfer.options {
            curl_easy_reset(handle)
            configured = false
        }
        if let error = transfer.configure(handle, configured: configured) {
            recycle(handle, after: nil)
            transfer.fail(error)
            return false
        }
        active[handle] = transfer
        curl_multi_add_handle(multi, handle)
        return true
    }

    /// Milliseconds the loop may sleep: a second, or until the next retry is due.
    private func pollTimeout() -> Int {
        guard let due = feeders.compactMap({ $0.delayed.map(\.due).min() }).min() else { return 1000 }
        let (seconds, attoseconds) = (due - ContinuousClock.now).components
        return max(1, min(1000, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000) + 1))
    }

    /// Tops every feeder up to its width, due retries first; true when a transfer was started.
    private func refillFromFeeders() -> Bool {
        var startedAny = false
        let now = ContinuousClock.now
        for feeder in feeders where !feeder.delayed.isEmpty {
            // A waiting retry already counts as in flight.
            for retry in feeder.takeDue(at: now) {
                if start(retry) { startedAny = true } else { feeder.inFlight -= 1 }
            }
        }
        for feeder in feeders {
            pulling: while !feeder.exhausted && feeder.inFlight < feeder.width {
                switch feeder.next() {
                case .end:
                    feeder.exhausted = true
                case .notYet:
                    // Whoever holds the next work back wakes this loop when it is free.
                    break pulling
                case .transfer(let transfer):
                    transfer.feeder = feeder
                    if start(transfer) {
                        feeder.inFlight += 1
                        startedAny = true
                    }
                }
            }
        }
        for feeder in feeders where feeder.exhausted && feeder.inFlight == 0 { feeder.done() }
        feeders.removeAll { $0.exhausted && $0.inFlight == 0 }
        return startedAny
    }

    private func abort(_ transfer: CurlTransfer) {
        // A transfer that already finished resumed its task; its handle may serve another one now.
        guard let handle = transfer.handle, active[handle] === transfer else { return transfer.cancel() }
        curl_multi_remove_handle(multi, handle)
        active[handle] = nil
        recycle(handle, after: nil)
        transfer.cancel()
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, handle)
            guard let transfer = active.removeValue(forKey: handle) else {
                recycle(handle, after: nil)
                continue
            }
            let hop = code == CURLE_OK ? transfer.redirect(from: handle) : nil
            // The response's status, version and timings are read from the handle before it is
            // recycled, and it is recycled as the hop just done left it (before `follow`).
            if hop == nil { transfer.finish(code: code) }
            recycle(handle, after: transfer)
            switch hop {
            case .success(let next)?:
                // The same transfer goes on to the next hop: its task, feeder and cancellation
                // stay as they were.
                transfer.follow(next)
                if !start(transfer) { transfer.feeder?.inFlight -= 1 }
            case .failure(let error)?:
                transfer.fail(error)
                transfer.feeder?.inFlight -= 1
            case nil:
                transfer.feeder?.inFlight -= 1
            }
        }
    }

    /// Keeps `handle` for another transfer: as configured when `finished` was a plain GET, else reset.
    private func recycle(_ handle: UnsafeMutableRawPointer, after finished: CurlTransfer?) {
        guard idle.count < Self.maxIdleHandles else {
            curl_easy_cleanup(handle)
            return
        }
        // A redirect's hop may have shortened the timeout to what was left: reset, not kept.
        if let finished, finished.isPlainGET, finished.redirects == 0 {
            idle.append((handle, finished.options))
        } else {
            curl_easy_reset(handle)
            idle.append((handle, nil))
        }
    }

    private func tearDown() {
        for (handle, transfer) in active {
            curl_multi_remove_handle(multi, handle)
            curl_easy_cleanup(handle)
            transfer.cancel()
        }
        active.removeAll()
        for feeder in feeders {
            for retry in feeder.delayed { retry.transfer.cancelWaiting() }
            feeder.delayed.removeAll()
            feeder.done()
        }
        feeders.removeAll()
        for (handle, _) in idle { curl_easy_cleanup(handle) }
        idle.removeAll()
        curl_multi_cleanup(multi)
    }
}

/// A source of transfers that an engine pulls from itself: whenever one of the feeder's transfers
/// finishes, the engine asks for the next, on its own thread, so a stream of requests runs with
/// no hand-off between threads per request (as a bare libcurl loop does).
final class CurlFeeder: @unchecked Sendable {
    let width: Int
    /// Further tries after a transient transport error, each after ``TransportError/retryPause(after:)``.
    let retries: Int
    let next: () -> Pull
    let done: () -> Void

    /// What the feeder has for a free slot.
    enum Pull {
        case transfer(CurlTransfer)
        /// Nothing may start now, but more will come (see ``HTTPClient/wakeStreams()``).
        case notYet
        case end
    }
    // The engine's thread only.
    var inFlight = 0
    var exhausted = false
    /// Retries and follow-ups waiting for their pause to end; each counts in `inFlight`, so a stream never has
    /// more than `width` requests going or waiting, and does not end while one waits.
    var delayed: [(due: ContinuousClock.Instant, transfer: CurlTransfer)] = []

    init(width: Int, retries: Int, next: @escaping () -> Pull, done: @escaping () -> Void) {
        self.width = width
        self.retries = retries
        self.next = next
        self.done = done
    }

    /// Called as a transfer finishes (its slot is given back right after, so take it again).
    func retry(_ transfer: CurlTransfer) {
        transfer.feeder = self
        inFlight += 1
        delayed.append((ContinuousClock.now + TransportError.retryPause(after: transfer.attempt - 1), transfer))
    }

    /// Called as a transfer finishes with the next transfer of its slot, started on the loop's
    /// next refill once its ``CurlTransfer/pause`` is over, before any new pull (its finished
    /// predecessor gives the slot back right after).
    func followUp(_ transfer: CurlTransfer) {
        transfer.feeder = self
        inFlight += 1
        delayed.append((ContinuousClock.now + transfer.pause, transfer))
    }

    func takeDue(at now: ContinuousClock.Instant) -> [CurlTransfer] {
        let due = delayed.filter { $0.due <= now }.map(\.transfer)
        if !due.isEmpty { delayed.removeAll { $0.due <= now } }
        return due
    }
}

/// `curl_global_init` exactly once per process, before the first handle.
enum CurlGlobal {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    static func ensureInitialized() {
        _ = initialized
    }

    /// `libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 brotli/1.0.9 nghttp2/1.52.0`, for `--version`.
    static var version: String {
        String(cString: curl_version())
    }
}
