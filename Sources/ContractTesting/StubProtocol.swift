import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A slot's protocol class, seen without its generic argument.
protocol StubSlotClass: URLProtocol {
    static var slotIndex: Int { get }
}

/// The protocol class of one slot: it serves every request of the sessions configured with it
/// from that slot's stub.
///
/// Not `Sendable`: Foundation marks `URLProtocol`'s conformance unavailable (the loading system
/// drives each instance from its own threads), and restating it warns in every user's build. The
/// one hop to another thread, a delayed answer, goes through `Later`.
final class StubProtocol<Slot: StubSlot>: URLProtocol, StubSlotClass {
    private let stopped = NSLock()
    private var isStopped = false

    static var slotIndex: Int { Slot.index }

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let stub = StubSlots.shared.stub(at: Slot.index) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cancelled))
            return
        }
        switch stub.answer(request, isUpload: task is URLSessionUploadTask) {
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .response(let response, let data, let delay):
            guard let delay else { return deliver(response, data) }
            let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
            let later = Later(protocolObject: self, response: response, data: data)
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { later.protocolObject.deliver(later.response, later.data) }
        }
    }

    override func stopLoading() {
        stopped.locked { isStopped = true }
    }

    /// What a delayed answer carries to the queue; the protocol object is only used there.
    private struct Later: @unchecked Sendable {
        let protocolObject: StubProtocol
        let response: HTTPURLResponse
        let data: Data?
    }

    private func deliver(_ response: HTTPURLResponse, _ data: Data?) {
        guard !stopped.locked({ isStopped }) else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if let data { client?.urlProtocol(self, didLoad: data) }
        client?.urlProtocolDidFinishLoading(self)
    }
}
