import Foundation

/// Sends HTTP requests through libcurl, many at once. A client drives one libcurl multi handle
/// (with its connection pool) per engine, each on a thread of its own; requests are spread over
/// the engines round robin. The only type in the project that reaches libcurl.
public final class HTTPClient: Sendable {
    private let engines: [CurlEngine]
    private let picker = EnginePicker()

    /// - Parameter engines: threads driving transfers. More than one spreads the processing of
    ///   responses over cores; where the server under test shares the cores (loopback on a small
    ///   machine), one was faster (docs/PERFORMANCE.md).
    public init(engines: Int = 1) {
        self.engines = (0..<max(1, engines)).map { _ in CurlEngine() }
    }

    deinit {
        for engine in engines { engine.shutdown() }
    }

    /// The response, or why there is none. Cancelling the calling task aborts the transfer.
    public func send(_ request: HTTPRequest, options: HTTPOptions = HTTPOptions()) async -> Result<HTTPResponse, TransportError> {
        await send(request, options: options) { $0 }
    }

    /// Sends the request and runs `processing` on its outcome on the thread that received it, before
    /// the calling task resumes: checking a response there costs no hand-off between threads, and
    /// the response's body is released as soon as `processing` returns.
    public func send<Output: Sendable>(
        _ request: HTTPRequest, options: HTTPOptions = HTTPOptions(),
        processing: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Output
    ) async -> Output {
        let engine = engines[picker.next(of: engines.count)]
        let slot = TransferSlot()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Output, Never>) in
                let transfer = CurlTransfer(request: request, options: options) { outcome, _ in
                    continuation.resume(returning: processing(outcome))
                    return nil
                }
                if slot.install(transfer) {
                    engine.submit(transfer)
                } else {
                    transfer.cancel()
                }
            }
        } onCancel: {
            if let transfer = slot.markCancelled() { engine.cancel(transfer) }
        }
    }

    /// Sends the requests `next` gives until it gives nil, keeping `width` in flight; see
    /// ``stream(width:options:retries:pull:)``, of which this is the simple form.
    public func stream(
        width: Int, options: HTTPOptions = HTTPOptions(), retries: Int = 0,
        next: @escaping @Sendable () -> (HTTPRequest, @Sendable (Result<HTTPResponse, TransportError>, _ attempts: Int) -> Void)?
    ) async {
        await stream(width: width, options: options, retries: retries) {
            guard let (request, completion) = next() else { return .end }
            return .send(StreamRequest(request) { outcome, attempts in
                completion(outcome, attempts)
                return nil
            })
        }
    }

    /// Sends what `pull` gives until it says `.end`, keeping `width` slots busy, and returns when
    /// all are done. `pull` and each request's completion run on the engines' threads, the next
    /// request starting as soon as one finishes: a stream of requests then costs no hand-off
    /// between threads per request. `pull` is called from several threads when the client has
    /// several engines.
    ///
    /// A completion may answer with the next request of its slot (the next step of a sequence,
    /// which needs the response before it), sent at once in the same slot. `pull` may answer
    /// `.notYet` when nothing may start now; call ``wakeStreams()`` once something may.
    ///
    /// A request that meets a transient transport error (``TransportError/isTransient``) is sent
    /// again while its attempts (``StreamRequest/attemptsMade`` included) are at most `retries`,
    /// after ``TransportError/retryPause(after:)``, in its slot (a retry waiting for its pause
    /// counts as in flight). Its completion gets the final outcome and the number of attempts made.
    public func stream(
        width: Int, options: HTTPOptions = HTTPOptions(), retries: Int = 0, pull: @escaping @Sendable () -> StreamPull
    ) async {
        let shares = (0..<engines.count).map { max(1, width) / engines.count + ($0 < max(1, width) % engines.count ? 1 : 0) }.filter { $0 > 0 }
        @Sendable func transfer(_ item: StreamRequest) -> CurlTransfer {
            CurlTransfer(request: item.request, options: options, attempt: item.attemptsMade + 1, pause: item.pause) { outcome, attempts in
                item.completion(outcome, attempts).map(transfer)
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let remaining = FeederCount(shares.count) { continuation.resume() }
            for (engine, share) in zip(engines, shares) {
                engine.attach(CurlFeeder(
                    width: share, retries: max(0, retries),
                    next: {
                        switch pull() {
                        case .send(let item): .transfer(transfer(item))
                        case .notYet: .notYet
                        case .end: .end
                        }
                    },
                    done: remaining.oneDone))
            }
        }
    }

    /// Makes every stream whose `pull` last answered `.notYet` ask again.
    public func wakeStreams() {
        for engine in engines { engine.wake() }
    }

    /// The libcurl in use and its TLS, compression and HTTP/2 libraries.
    public static var libraryVersion: String { CurlGlobal.version }
}

/// One request of a stream, and what follows it in its slot.
public struct StreamRequest: Sendable {
    public var request: HTTPRequest
    /// Runs on the engine's thread with the final outcome and the attempts made; a request it
    /// returns is sent next, in the same slot.
    public var completion: @Sendable (Result<HTTPResponse, TransportError>, _ attempts: Int) -> StreamRequest?
    /// How long a request that a completion returns waits before it is sent (its slot stays
    /// taken meanwhile): a request the server refused for now (429, 503) is asked again after a
    /// pause. A request `pull` gives is sent at once.
    public var pause: Duration
    /// Sends of the same request before this one (it is asked again): its attempts count on from
    /// there, and a transport error is retried only while they are within the stream's `retries`,
    /// so both kinds of retry share one budget.
    public var attemptsMade: Int

    public init(
        _ request: HTTPRequest, pause: Duration = .zero, attemptsMade: Int = 0,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>, _ attempts: Int) -> StreamRequest?
    ) {
        self.request = request
        self.pause = pause
        self.attemptsMade = attemptsMade
        self.completion = completion
    }
}

/// What a stream's source has for a free slot.
public enum StreamPull: Sendable {
    case send(StreamRequest)
    /// Nothing may start now (it waits for a request in flight), but more will come.
    case notYet
    /// Nothing more will come.
    case end
}

/// Calls `finished` once every feeder of a stream is done.
private final class FeederCount: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int
    private let finished: () -> Void

    init(_ count: Int, finished: @escaping () -> Void) {
        left = count
        self.finished = finished
    }

    func oneDone() {
        let last = lock.withLock {
            left -= 1
            return left == 0
        }
        if last { finished() }
    }
}

/// Round robin over the engines.
private final class EnginePicker: @unchecked Sendable {
    private let lock = NSLock()
    private var counter = 0

    func next(of count: Int) -> Int {
        lock.withLock {
            counter &+= 1
            return counter % count
        }
    }
}

/// Hands the transfer to a cancellation handler that may run before it exists.
private final class TransferSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var transfer: CurlTransfer?
    private var cancelled = false

    /// False when the task was cancelled first: the transfer must not start.
    func install(_ transfer: CurlTransfer) -> Bool {
        lock.withLock {
            self.transfer = transfer
            return !cancelled
        }
    }

    func markCancelled() -> CurlTransfer? {
        lock.withLock {
            cancelled = true
            return transfer
        }
    }
}
