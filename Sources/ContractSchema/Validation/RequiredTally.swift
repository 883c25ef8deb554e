/// The required properties an object has, each counted once: a parsed body keeps every member
/// of a repeated name, and counting matches instead let `{"a": 1, "a": 1}` stand for both `a`
/// and a missing `b`. Positions below 64 are bits of one word; any above, flags made on demand.
struct RequiredTally {
    private var low: UInt64 = 0
    private var high: [Bool]?
    private(set) var count = 0

    /// Counts the property at `position` (of `total` declared) unless it was counted already.
    @inline(__always) mutating func see(_ position: Int, of total: Int) {
        if position < 64 {
            let bit: UInt64 = 1 << UInt64(position)
            guard low & bit == 0 else { return }
            low |= bit
        } else {
            var flags = high ?? Array(repeating: false, count: total)
            high = nil  // `flags` alone holds the array: set in place, not copied
            let seen = flags[position]
            flags[position] = true
            high = flags
            guard !seen else { return }
        }
        count += 1
    }
}
