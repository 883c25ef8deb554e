import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Routes each session to its own stub. A `URLProtocol` cannot see which session a request came
/// from (and on Linux not even the session's extra headers), so each live stub gets its own
/// protocol class: a slot in a fixed pool, taken by a stub and released when it goes away.
public final class StubSlots: @unchecked Sendable {
    public static let count = 64
    static let shared = StubSlots()
    private let lock = NSLock()
    private var stubs = [WeakStub?](repeating: nil, count: StubSlots.count)
    private var taken = [Bool](repeating: false, count: StubSlots.count)

    private struct WeakStub {
        weak var stub: ContractStub?
    }

    func acquire() -> Int? {
        lock.locked {
            guard let free = taken.firstIndex(of: false) else { return nil }
            taken[free] = true
            return free
        }
    }

    func install(_ stub: ContractStub, at slot: Int) {
        lock.locked { stubs[slot] = WeakStub(stub: stub) }
    }

    func release(_ slot: Int) {
        lock.locked {
            stubs[slot] = nil
            taken[slot] = false
        }
    }

    func stub(at slot: Int) -> ContractStub? {
        lock.locked { stubs[slot]?.stub }
    }

    static func protocolClass(for slot: Int) -> AnyClass {
        slotClasses[slot]
    }

    /// 2^6 distinct protocol classes, one per slot, made from the binary digits of the index.
    private static let slotClasses: [AnyClass] = classes(Root.self, depth: 6)

    private static func classes<Slot: StubSlot>(_: Slot.Type, depth: Int) -> [AnyClass] {
        depth == 0 ? [StubProtocol<Slot>.self] : classes(Zero<Slot>.self, depth: depth - 1) + classes(One<Slot>.self, depth: depth - 1)
    }
}

protocol StubSlot: Sendable { static var index: Int { get } }
enum Root: StubSlot { static var index: Int { 0 } }
enum Zero<Parent: StubSlot>: StubSlot { static var index: Int { Parent.index * 2 } }
enum One<Parent: StubSlot>: StubSlot { static var index: Int { Parent.index * 2 + 1 } }

/// The protocol class of one slot: it serves every request of the sessions configured with it
/// from that slot's stub.
final class StubProtocol<Slot: StubSlot>: URLProtocol, @unchecked Sendable {
    private let stopped = NSLock()
    private var isStopped = false

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let stub = StubSlots.shared.stub(at: Slot.index) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cancelled))
            return
        }
        switch stub.answer(request) {
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

extension NSLock {
    /// `NSLocking.withLock` needs macOS 14 and iOS 17 on Apple platforms; apps test on older ones.
    func locked<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock()
        defer { unlock() }
        return try body()
    }
}
