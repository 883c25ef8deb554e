/// A compiled regular expression: instructions for ``RegexMachine``.
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        case scalar(UInt32)
        case set(Int)
        /// As many characters of a set as possible, between the bounds (a greedy `[0-9]+`).
        case greedySet(Int, min: Int, max: Int?)
        /// Try the first target, backtrack to the second.
        case split(Int, Int)
        case jump(Int)
        /// Record the position in a capture slot (group g uses slots 2g and 2g+1).
        case save(Int)
        case lineStart
        case lineEnd
        case wordBoundary(negated: Bool)
        case lookaround(Int, ahead: Bool, negated: Bool)
        case backreference(Int)
        /// Remember where an iteration of a loop began…
        case loopStart(Int)
        /// …and reject the iteration if it consumed nothing, so `(a*)*` ends (ECMA-262 RepeatMatcher).
        case loopEnd(Int)
        case match
    }

    var instructions: [Instruction] = []
    var sets: [RegexCharacterSet] = []
    /// The bodies of lookaround assertions, each a program of its own.
    var subprograms: [RegexProgram] = []
    /// Capture slots and loop registers, shared with the subprograms.
    var slotCount = 2
    /// The number of capturing groups, `(…)`.
    var groupCount = 0
    /// Every alternative starts with `^`: only position 0 can match.
    var anchoredAtStart = false

    /// Whether any instruction (here or in a lookaround) reads or writes capture slots; set by the compiler.
    var usesSlots = true

    /// Whether the instruction after `pc` is `$`, or a match that accepts any end position, so a
    /// greedy run before it has nothing to gain from backtracking.
    func endsAfter(_ pc: Int, anyEnd: Bool) -> Bool {
        guard pc + 1 < instructions.count else { return false }
        switch instructions[pc + 1] {
        case .lineEnd: return true
        case .match: return anyEnd
        default: return false
        }
    }
}

/// Turns a syntax tree into a ``RegexProgram``.
enum RegexCompiler {
    static func compile(_ tree: RegexNode) -> RegexProgram {
        var registers = Registers(next: 2 + 2 * captureCount(tree))
        var program = compileProgram(tree, registers: &registers)
        program.anchoredAtStart = isAnchored(tree)
        program.usesSlots = usesSlots(program)
        program.slotCount = registers.next
        program.groupCount = captureCount(tree)
        return program
    }

    struct Registers {
        var next: Int
        mutating func allocate() -> Int {
            defer { next += 1 }
            return next
        }
    }

    private static func compileProgram(_ tree: RegexNode, registers: inout Registers) -> RegexProgram {
        var program = RegexProgram()
        emit(tree, into: &program, registers: &registers)
        program.instructions.append(.match)
        return program
    }

    private static func emit(_ node: RegexNode, into program: inout RegexProgram, registers: inout Registers) {
        switch node {
        case .empty:
            break
        case .scalar(let value):
            program.instructions.append(.scalar(value))
        case .set(let set):
            program.sets.append(set)
            program.instructions.append(.set(program.sets.count - 1))
        case .sequence(let nodes):
            for inner in nodes { emit(inner, into: &program, registers: &registers) }
        case .alternation(let nodes):
            var jumps: [Int] = []
            for (index, inner) in nodes.enumerated() {
                if index < nodes.count - 1 {
                    let split = program.instructions.count
                    program.instructions.append(.split(split + 1, -1))
                    emit(inner, into: &program, registers: &registers)
                    jumps.append(program.instructions.count)
                    program.instructions.append(.jump(-1))
                    program.instructions[split] = .split(split + 1, program.instructions.count)
                } else {
                    emit(inner, into: &program, registers: &registers)
                }
            }
            for jump in jumps { program.instructions[jump] = .jump(program.instructions.count) }
        case .group(let inner, let capture):
            if let capture { program.instructions.append(.save(2 * capture)) }
            emit(inner, into: &program, registers: &registers)
            if let capture { program.instructions.append(.save(2 * capture + 1)) }
        case .repetition(.set(let set), let minimum, let maximum, true):
            program.sets.append(set)
            program.instructions.append(.greedySet(program.sets.count - 1, min: minimum, max: maximum))
        case .repetition(.scalar(let value), let minimum, let maximum, true):
            program.sets.append(RegexCharacterSet(ranges: [value...value]))
            program.instructions.append(.greedySet(program.sets.count - 1, min: minimum, max: maximum))
        case .repetition(let inner, let minimum, let maximum, let greedy):
            for _ in 0..<minimum { emit(inner, into: &program, registers: &registers) }
            if let maximum {
                // Each optional copy: split past the rest, so fewer copies are tried on backtracking.
                var exits: [Int] = []
                for _ in minimum..<max(minimum, maximum) {
                    let split = program.instructions.count
                    program.instructions.append(.split(-1, -1))
                    exits.append(split)
                    emit(inner, into: &program, registers: &registers)
                }
                let end = program.instructions.count
                for split in exits { program.instructions[split] = greedy ? .split(split + 1, end) : .split(end, split + 1) }
            } else {
                let register = registers.allocate()
                let loop = program.instructions.count
                program.instructions.append(.split(-1, -1))
                program.instructions.append(.loopStart(register))
                emit(inner, into: &program, registers: &registers)
                program.instructions.append(.loopEnd(register))
                program.instructions.append(.jump(loop))
                let end = program.instructions.count
                program.instructions[loop] = greedy ? .split(loop + 1, end) : .split(end, loop + 1)
            }
        case .lineStart:
            program.instructions.append(.lineStart)
        case .lineEnd:
            program.instructions.append(.lineEnd)
        case .wordBoundary(let negated):
            program.instructions.append(.wordBoundary(negated: negated))
        case .lookaround(let inner, let ahead, let negated):
            program.subprograms.append(compileProgram(inner, registers: &registers))
            program.instructions.append(.lookaround(program.subprograms.count - 1, ahead: ahead, negated: negated))
        case .backreference(let group):
            program.instructions.append(.backreference(group))
        }
    }

    private static func usesSlots(_ program: RegexProgram) -> Bool {
        program.subprograms.contains(where: usesSlots) || program.instructions.contains {
            switch $0 {
            case .save, .loopStart, .loopEnd, .backreference, .lookaround: true
            default: false
            }
        }
    }

    private static func captureCount(_ node: RegexNode) -> Int {
        switch node {
        case .group(let inner, let capture): max(capture ?? 0, captureCount(inner))
        case .sequence(let nodes), .alternation(let nodes): nodes.map(captureCount).max() ?? 0
        case .repetition(let inner, _, _, _), .lookaround(let inner, _, _): captureCount(inner)
        default: 0
        }
    }

    private static func isAnchored(_ node: RegexNode) -> Bool {
        switch node {
        case .lineStart: true
        case .sequence(let nodes): nodes.first.map(isAnchored) ?? false
        case .alternation(let nodes): nodes.allSatisfy(isAnchored)
        case .group(let inner, _): isAnchored(inner)
        default: false
        }
    }
}
