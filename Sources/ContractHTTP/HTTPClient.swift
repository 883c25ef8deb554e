import Foundation

/// Sends HTTP requests through libcurl, many at once: every request of one client shares a
/// multi handle (and so its connection pool) driven by one background thread. The only type in
/// the project that reaches libcurl.
public final class HTTPClient: Sendable {
    private let engine = CurlEngine()

    public init() {}

    deinit {
        engine.shutdown()
    }

    /// The response, or why there is none. Cancelling the calling task aborts the transfer.
    public func send(_ request: HTTPRequest, options: HTTPOptions = HTTPOptions()) async -> Result<HTTPResponse, TransportError> {
        let slot = TransferSlot()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let transfer = CurlTransfer(request: request, options: options, continuation: continuation)
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
