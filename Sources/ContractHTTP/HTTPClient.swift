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
                let transfer = CurlTransfer(request: request, options: options) { continuation.resume(returning: processing($0)) }
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

    /// The libcurl in use and its TLS, compression and HTTP/2 libraries.
    public static var libraryVersion: String { CurlGlobal.version }
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
