import Foundation

/// Routes each session to its own stub. A `URLProtocol` cannot see which session a request came
/// from (and on Linux not even the session's extra headers), so each live stub takes a slot, and
/// each slot has a protocol class of its own that sessions configured by the stub use.
///
/// A slot's class is `StubProtocol` over a type spelling the slot's number in binary
/// (`StubProtocol<One<Zero<…<Root>>>>`). Generic metadata is made by the runtime when a type is
/// first used, so a class is made only when its slot is first taken, and kept for reuse: memory
/// follows the most stubs ever alive at once, not the limit. Released slots are taken again
/// before new ones, the longest-released first, so a session that outlives its stub is the least
/// likely to reach the stub that took its slot next.
public final class StubSlots: @unchecked Sendable {
    /// How many `ContractStub`s can be alive at once in a process: 2^20, 1,048,576. A suite
    /// that keeps one stub per test case alive (XCTest keeps every case until the run ends) stays
    /// far below it; reaching it throws from `ContractStub.init`, saying how to release stubs.
    public static let capacity = 1 << digitCount

    /// Binary digits in a slot's type: the depth of its generic nesting, and so of the static
    /// calls that turn a class back into its slot number (`Slot.index`) on each request.
    static let digitCount = 20
    static let shared = StubSlots(digits: digitCount)

    private let digits: Int
    private let limit: Int
    private let lock = NSLock()
    /// Every slot ever taken, by number; only grows when no released slot is left.
    private var slots: [Slot] = []
    /// Released slot numbers, oldest first from `freedStart` (a queue without a deque type).
    private var freed: [Int] = []
    private var freedStart = 0

    private struct Slot {
        weak var stub: ContractStub?
        let protocolClass: any StubSlotClass.Type
    }

    init(digits: Int) {
        self.digits = digits
        limit = 1 << digits
    }

    /// A free slot's number, with its class made if it is the first time the slot is taken.
    func acquire() throws(FixtureLoadError) -> Int {
        guard let slot = lock.locked({ take() }) else {
            throw FixtureLoadError(.tooManyStubs, """
                \(limit) ContractStubs are alive at once, as many as there can be. A test case keeps its \
                properties until the whole run ends: set the stub property to nil in tearDown, or \
                share one stub between the tests of a class
                """)
        }
        return slot
    }

    /// Called with the lock held.
    private func take() -> Int? {
        if freedStart < freed.count {
            let slot = freed[freedStart]
            freedStart += 1
            if freedStart == freed.count {
                freed.removeAll(keepingCapacity: true)
                freedStart = 0
            } else if freedStart >= 1024, freedStart * 2 >= freed.count {
                freed.removeFirst(freedStart)
                freedStart = 0
            }
            return slot
        }
        guard slots.count < limit else { return nil }
        slots.append(Slot(protocolClass: Self.makeClass(slot: slots.count, digits: digits)))
        return slots.count - 1
    }

    func install(_ stub: ContractStub, at slot: Int) {
        lock.locked { slots[slot].stub = stub }
    }

    func release(_ slot: Int) {
        lock.locked {
            slots[slot].stub = nil
            freed.append(slot)
        }
    }

    /// The stub in a slot, or nil once it is gone (a session that outlived its stub).
    func stub(at slot: Int) -> ContractStub? {
        lock.locked { slot < slots.count ? slots[slot].stub : nil }
    }

    /// The class of a slot taken before.
    func protocolClass(for slot: Int) -> any StubSlotClass.Type {
        lock.locked { slots[slot].protocolClass }
    }

    /// How many slot classes exist: the most slots ever taken at once.
    var classesMade: Int {
        lock.locked { slots.count }
    }

    /// `StubProtocol` over the slot's binary digits, most significant first: one step of generic
    /// recursion per digit, each naming (and so making, the first time) one more nested type.
    static func makeClass(slot: Int, digits: Int) -> any StubSlotClass.Type {
        makeClass(Root.self, slot: slot, remaining: digits)
    }

    private static func makeClass<Prefix: StubSlot>(_: Prefix.Type, slot: Int, remaining: Int) -> any StubSlotClass.Type {
        guard remaining > 0 else { return StubProtocol<Prefix>.self }
        return (slot >> (remaining - 1)) & 1 == 0
            ? makeClass(Zero<Prefix>.self, slot: slot, remaining: remaining - 1)
            : makeClass(One<Prefix>.self, slot: slot, remaining: remaining - 1)
    }
}

/// A type naming a slot number by its binary digits, the outermost type the last digit:
/// `One<Zero<Root>>` is 0b01, 1, and `Zero<One<Root>>` is 0b10, 2.
protocol StubSlot: Sendable { static var index: Int { get } }
enum Root: StubSlot { static var index: Int { 0 } }
enum Zero<Parent: StubSlot>: StubSlot { static var index: Int { Parent.index * 2 } }
enum One<Parent: StubSlot>: StubSlot { static var index: Int { Parent.index * 2 + 1 } }
