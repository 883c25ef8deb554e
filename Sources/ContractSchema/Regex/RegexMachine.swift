/// The text a regular expression runs over, as Unicode scalar values.
protocol RegexInput {
    var count: Int { get }
    subscript(_ index: Int) -> UInt32 { get }
}

/// ASCII text read in place from a string's UTF-8 storage.
struct ASCIIInput: RegexInput {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }
    subscript(_ index: Int) -> UInt32 { UInt32(bytes[index]) }
}

/// Any other text, decoded to scalars.
struct ScalarInput: RegexInput {
    let scalars: [UInt32]
    var count: Int { scalars.count }
    subscript(_ index: Int) -> UInt32 { scalars[index] }
}

/// Runs a ``RegexProgram`` by backtracking, with an explicit stack (no recursion per step) and a
/// step budget, so no pattern and input can exhaust the stack or run without end.
struct RegexMachine<Input: RegexInput> {
    let input: Input
    let stepLimit: Int
    private var steps = 0
    /// Where the last match of the main program ended.
    private var matchEnd = 0

    private enum Backtrack {
        case branch(pc: Int, position: Int)
        case restore(slot: Int, value: Int)
        /// A greedy run of one character class may give back characters, down to `minimum`.
        case giveBack(pc: Int, position: Int, minimum: Int)
    }

    init(input: Input, stepLimit: Int) {
        self.input = input
        self.stepLimit = stepLimit
    }

    /// The program is passed, not stored, so a match never copies (and retains) it.
    mutating func search(_ program: borrowing RegexProgram) -> RegexMatchResult {
        // Patterns without groups, loops or lookaround never touch slots: skip the allocation.
        var slots = program.usesSlots ? [Int](repeating: -1, count: program.slotCount) : []
        let lastStart = program.anchoredAtStart ? 0 : input.count
        for start in 0...lastStart {
            switch run(program, from: start, end: nil, slots: &slots) {
            case .matched: return .matched
            case .gaveUp: return .gaveUp
            case .notMatched: continue
            }
        }
        return .notMatched
    }

    /// Like ``search(_:)``, with where the match is: the capture slots of the matching run, group
    /// `g` from `2g` to `2g + 1` (-1 where it took no part), the whole match at 0 and 1.
    mutating func searchGroups(_ program: borrowing RegexProgram) -> (result: RegexMatchResult, slots: [Int]) {
        let fresh = [Int](repeating: -1, count: max(program.slotCount, 2))
        let lastStart = program.anchoredAtStart ? 0 : input.count
        for start in 0...lastStart {
            var slots = fresh
            switch run(program, from: start, end: nil, slots: &slots) {
            case .matched:
                slots[0] = start
                slots[1] = matchEnd
                return (.matched, slots)
            case .gaveUp: return (.gaveUp, [])
            case .notMatched: continue
            }
        }
        return (.notMatched, [])
    }

    /// Runs `program` from `start`; when `end` is given the match must finish exactly there (lookbehind).
    private mutating func run(_ program: RegexProgram, from start: Int, end: Int?, slots: inout [Int]) -> RegexMatchResult {
        var stack: [Backtrack] = []
        var pc = 0
        var position = start
        while true {
            steps += 1
            if steps > stepLimit { return .gaveUp }
            var failed = false
            switch program.instructions[pc] {
            case .scalar(let value):
                if position < input.count && input[position] == value {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .set(let index):
                if position < input.count && program.sets[index].contains(input[position]) {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .greedySet(let index, let minimum, let maximum):
                // Consume as many as allowed in one go; backtracking then gives them back one by one.
                let start = position
                let limit = maximum.map { min(input.count, start + $0) } ?? input.count
                // The set is read in place: copying it would retain each of its arrays.
                while position < limit && program.sets[index].contains(input[position]) { position += 1 }
                if position - start < minimum {
                    failed = true
                } else {
                    // Giving characters back cannot help when only the end of the text (or success) follows.
                    if position - start > minimum && !program.endsAfter(pc, anyEnd: end == nil) {
                        stack.append(.giveBack(pc: pc + 1, position: position, minimum: start + minimum))
                    }
                    pc += 1
                }
            case .split(let first, let second):
                stack.append(.branch(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .save(let slot), .loopStart(let slot):
                stack.append(.restore(slot: slot, value: slots[slot]))
                slots[slot] = position
                pc += 1
            case .loopEnd(let slot):
                if slots[slot] == position { failed = true } else { pc += 1 }
            case .lineStart:
                if position == 0 { pc += 1 } else { failed = true }
            case .lineEnd:
                if position == input.count { pc += 1 } else { failed = true }
            case .wordBoundary(let negated):
                let before = position > 0 && RegexCharacterSet.isWordCharacter(input[position - 1])
                let after = position < input.count && RegexCharacterSet.isWordCharacter(input[position])
                if (before != after) != negated { pc += 1 } else { failed = true }
            case .lookaround(let index, let ahead, let negated):
                var inner = slots
                let result = ahead
                    ? run(program.subprograms[index], from: position, end: nil, slots: &inner)
                    : lookbehind(program.subprograms[index], endingAt: position, slots: &inner)
                if result == .gaveUp { return .gaveUp }
                if (result == .matched) != negated {
                    if !negated {
                        // Groups captured inside a positive lookaround stay visible to backreferences.
                        for slot in slots.indices where inner[slot] != slots[slot] {
                            stack.append(.restore(slot: slot, value: slots[slot]))
                            slots[slot] = inner[slot]
                        }
                    }
                    pc += 1
                } else {
                    failed = true
                }
            case .backreference(let group):
                let from = 2 * group < slots.count ? slots[2 * group] : -1
                let to = 2 * group + 1 < slots.count ? slots[2 * group + 1] : -1
                if from < 0 || to < from {
                    pc += 1  // an unset group matches the empty string
                } else if position + (to - from) <= input.count && (0..<(to - from)).allSatisfy({ input[from + $0] == input[position + $0] }) {
                    position += to - from
                    pc += 1
                } else {
                    failed = true
                }
            case .match:
                if end == nil || position == end {
                    matchEnd = position
                    return .matched
                }
                failed = true
            }
            guard failed else { continue }
            // Backtrack: undo slot writes until the next untried branch.
            var resumed = false
            while let entry = stack.popLast() {
                switch entry {
                case .restore(let slot, let value):
                    slots[slot] = value
                case .branch(let target, let savedPosition):
                    pc = target
                    position = savedPosition
                    resumed = true
                case .giveBack(let target, let savedPosition, let minimum):
                    pc = target
                    position = savedPosition - 1
                    if position > minimum { stack.append(.giveBack(pc: target, position: position, minimum: minimum)) }
                    resumed = true
                }
                if resumed { break }
            }
            if !resumed { return .notMatched }
        }
    }

    /// A lookbehind holds when its body matches some text that ends exactly here.
    private mutating func lookbehind(_ program: RegexProgram, endingAt end: Int, slots: inout [Int]) -> RegexMatchResult {
        for start in stride(from: end, through: 0, by: -1) {
            var attempt = slots
            let result = run(program, from: start, end: end, slots: &attempt)
            if result != .notMatched {
                if result == .matched { slots = attempt }
                return result
            }
        }
        return .notMatched
    }
}
