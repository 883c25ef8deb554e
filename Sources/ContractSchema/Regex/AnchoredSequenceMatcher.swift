/// A fast matcher for the most common shape of `pattern` in API schemas: anchored at both ends, a
/// plain sequence of ASCII characters and ASCII classes, each repeated between two bounds, such
/// as `^[A-Z]{3}-[0-9]{4,6}$` or `^[a-z0-9-]+$`.
///
/// It consumes each run greedily and never backtracks, which gives the same verdict as the
/// backtracking machine only when giving characters back could never help: every run with a
/// choice of length is followed either by the end or by a required run of characters it cannot
/// match itself. ``init(_:)`` accepts only such patterns; every other one keeps the machine.
struct AnchoredSequenceMatcher: Sendable {
    struct Run: Sendable {
        /// Which ASCII characters the run takes, as a 128-bit bitmap.
        let low: UInt64
        let high: UInt64
        let minimum: Int
        let maximum: Int

        @inline(__always) func contains(_ byte: UInt8) -> Bool {
            if byte < 64 { return (low >> UInt64(byte)) & 1 == 1 }
            if byte < 128 { return (high >> UInt64(byte - 64)) & 1 == 1 }
            return false
        }
    }

    let runs: [Run]

    /// Nil when the pattern is not anchored at both ends, has anything but ASCII characters and
    /// classes (alternation, lookaround, backreferences, Unicode), or a run whose greedy length
    /// might need giving back.
    init?(_ tree: RegexNode) {
        var terms: [RegexNode] = []
        guard Self.flatten(tree, into: &terms), terms.count >= 2, case .lineStart = terms[0], case .lineEnd = terms[terms.count - 1] else {
            return nil
        }
        var runs: [Run] = []
        for term in terms.dropFirst().dropLast() {
            guard let run = Self.run(term) else { return nil }
            runs.append(run)
        }
        for (index, run) in runs.enumerated() where run.minimum < run.maximum && index + 1 < runs.count {
            let next = runs[index + 1]
            guard next.minimum >= 1, run.low & next.low == 0, run.high & next.high == 0 else { return nil }
        }
        self.runs = runs
    }

    /// Whether the whole text is the sequence. Any non-ASCII byte fails: no run takes one.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var position = 0
        for run in runs {
            let start = position
            let limit = run.maximum < bytes.count - start ? start + run.maximum : bytes.count
            while position < limit && run.contains(bytes[position]) { position += 1 }
            if position - start < run.minimum { return false }
        }
        return position == bytes.count
    }

    /// The terms of nested sequences and plain groups, in order; false for alternation.
    private static func flatten(_ node: RegexNode, into terms: inout [RegexNode]) -> Bool {
        switch node {
        case .sequence(let parts):
            for part in parts where !flatten(part, into: &terms) { return false }
            return true
        case .group(let inner, _):
            // A group only captures; `matches` never reads captures.
            return flatten(inner, into: &terms)
        case .empty:
            return true
        case .alternation:
            return false
        default:
            terms.append(node)
            return true
        }
    }

    /// A character, class or repeated one as a run; nil for anything else.
    private static func run(_ node: RegexNode) -> Run? {
        switch node {
        case .scalar(let value):
            guard value < 128 else { return nil }
            return value < 64
                ? Run(low: 1 << UInt64(value), high: 0, minimum: 1, maximum: 1)
                : Run(low: 0, high: 1 << UInt64(value - 64), minimum: 1, maximum: 1)
        case .set(let set):
            guard let bitmap = set.asciiOnlyBitmap else { return nil }
            return Run(low: bitmap.low, high: bitmap.high, minimum: 1, maximum: 1)
        case .repetition(let inner, let minimum, let maximum, _):
            // Lazy or greedy makes no difference to whether a match exists.
            guard let single = run(inner), single.minimum == 1, single.maximum == 1 else { return nil }
            return Run(low: single.low, high: single.high, minimum: minimum, maximum: maximum ?? Int.max)
        default:
            return nil
        }
    }
}
