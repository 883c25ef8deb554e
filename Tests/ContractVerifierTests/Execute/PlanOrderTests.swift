import Testing
import TestSupport

@testable import ContractVerifier

/// Results come back in whatever order their requests end; reporters write them in plan order.
struct PlanOrderTests {
    /// Every order of arrival (shuffled, reversed, one late straggler, in order) gives every
    /// value once, in plan order, and holds none once all have come.
    @Test func releasesEveryValueOnceInPlanOrderWhateverTheArrival() {
        var generator = SplitMix(seed: 7)
        let count = 5_000
        var straggler = Array(1..<count)
        straggler.append(0)
        let orders = [Array(0..<count), Array((0..<count).reversed()), Array(0..<count).shuffled(using: &generator), straggler]
            // Results in flight a few dozen at a time, each window shuffled: the usual arrival.
            + [stride(from: 0, to: count, by: 32).flatMap { Array($0..<min($0 + 32, count)).shuffled(using: &generator) }]
        for arrival in orders {
            var order = PlanOrder<Int>()
            var released: [Int] = []
            for position in arrival {
                order.add(position * 10, at: position) { released.append($0) }
            }
            #expect(released == (0..<count).map { $0 * 10 })
        }
    }

    /// Before the earliest has come, nothing is released, whatever has come after it.
    @Test func holdsEverythingBehindTheFirstMissing() {
        var order = PlanOrder<String>()
        var released: [String] = []
        for position in [3, 1, 2, 5] { order.add("\(position)", at: position) { released.append($0) } }
        #expect(released.isEmpty)
        order.add("0", at: 0) { released.append($0) }
        #expect(released == ["0", "1", "2", "3"])
        order.add("4", at: 4) { released.append($0) }
        #expect(released == ["0", "1", "2", "3", "4", "5"])
    }
}
