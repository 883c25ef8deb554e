@testable import ContractTesting
import Foundation
import Testing

/// The slot table on its own, with few digits so its limit is reachable: slots are taken and
/// given back without a cap a suite can reach, each with a class of its own made when first needed.
struct StubSlotsTests {
    @Test func eachSlotsClassIsBuiltFromItsDigitsAndKnowsItsIndex() throws {
        let slots = StubSlots(digits: 4)
        for index in 0..<16 {
            let taken = try slots.acquire()
            #expect(taken == index)
            #expect(slots.protocolClass(for: taken).slotIndex == index)
        }
        #expect(ObjectIdentifier(slots.protocolClass(for: 5)) == ObjectIdentifier(StubProtocol<One<Zero<One<Zero<Root>>>>>.self))
        #expect(Set((0..<16).map { ObjectIdentifier(slots.protocolClass(for: $0)) }).count == 16)
    }

    @Test func freedSlotsAreTakenAgainBeforeNewOnesOldestFirst() throws {
        let slots = StubSlots(digits: 4)
        for _ in 0..<6 { _ = try slots.acquire() }
        slots.release(4)
        slots.release(1)
        #expect(try slots.acquire() == 4)
        #expect(try slots.acquire() == 1)
        #expect(try slots.acquire() == 6)
        #expect(slots.classesMade == 7)
    }

    @Test func theLastSlotTakenThrowsAndSaysWhatToDo() throws {
        let slots = StubSlots(digits: 3)
        for _ in 0..<8 { _ = try slots.acquire() }
        let error = #expect(throws: FixtureLoadError.self) { try slots.acquire() }
        #expect(error?.code == .tooManyStubs && error?.file == nil)
        #expect(error?.description == """
            8 ContractStubs are alive at once, as many as there can be. A test case keeps its \
            properties until the whole run ends: set the stub property to nil in tearDown, or \
            share one stub between the tests of a class
            """)
        slots.release(2)
        #expect(try slots.acquire() == 2)
    }

    @Test func theSharedTableHasRoomForAMillionStubs() {
        #expect(StubSlots.capacity == 1 << 20)
    }
}
