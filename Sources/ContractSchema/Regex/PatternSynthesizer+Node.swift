extension PatternSynthesizer {
    /// The engine's `RegexNode` tree with what rendering needs worked out once: each class's
    /// characters (a long minimum renders a class 100,000 times) and ids, so that a search can ask
    /// for another option of this very alternation and repeats of a class cycle through it. What does
    /// not change a candidate's text is dropped: captures, laziness, and assertions, which render as
    /// nothing and are left to the final check with ``ECMARegex``.
    indirect enum Node {
        case literal(UInt32)
        /// `members` as ``PatternSynthesizer/members(of:)`` orders them; empty when nothing matches.
        case set(id: Int, members: [UInt32])
        case sequence([Node])
        case alternation(id: Int, [Node])
        case repetition(Node, min: Int, max: Int?)
        case assertion

        /// Groups nested deeper than this are given up on before parsing: `RegexParser` recurses
        /// per group and overflows the stack at a few thousand.
        static let maximumNesting = 100

        /// The tree for `pattern` as ``ECMARegex`` parses it (Unicode mode, no flags); nil when
        /// the engine rejects it, it nests too deeply, or it has a backreference.
        static func tree(for pattern: String) -> Node? {
            guard nesting(of: pattern) <= maximumNesting else { return nil }
            var parser = RegexParser(pattern)
            guard let syntax = try? parser.parse() else { return nil }
            var lowering = Lowering()
            return lowering.lower(syntax)
        }

        /// The deepest run of open parentheses outside classes and escapes: a scan, not a parse, so
        /// it only bounds the depth (a malformed pattern's answer does not matter, the parser rejects it).
        private static func nesting(of pattern: String) -> Int {
            var depth = 0
            var deepest = 0
            var escaped = false
            var inClass = false
            for scalar in pattern.unicodeScalars {
                if escaped {
                    escaped = false
                    continue
                }
                switch scalar {
                case "\\": escaped = true
                case "[": inClass = true
                case "]": inClass = false
                case "(" where !inClass:
                    depth += 1
                    deepest = max(deepest, depth)
                case ")" where !inClass: depth -= 1
                default: break
                }
            }
            return deepest
        }
    }

    private struct Lowering {
        private var nextID = 0

        /// Nil for a backreference anywhere, even in a lookaround: text that repeats a capture is
        /// beyond this generator.
        mutating func lower(_ node: RegexNode) -> Node? {
            switch node {
            case .empty:
                return .sequence([])
            case .scalar(let value):
                return .literal(value)
            case .set(let set):
                return .set(id: newID(), members: PatternSynthesizer.members(of: set))
            case .sequence(let nodes):
                return lower(nodes).map(Node.sequence)
            case .alternation(let options):
                guard let options = lower(options) else { return nil }
                return .alternation(id: newID(), options)
            case .group(let inner, _):
                return lower(inner)
            case .repetition(let inner, let minimum, let maximum, _):
                // Laziness changes which match the engine finds, not which strings match.
                return lower(inner).map { .repetition($0, min: minimum, max: maximum) }
            case .lineStart, .lineEnd, .wordBoundary:
                return .assertion
            case .lookaround(let body, _, _):
                return lower(body) == nil ? nil : .assertion
            case .backreference:
                return nil
            }
        }

        private mutating func lower(_ nodes: [RegexNode]) -> [Node]? {
            var result: [Node] = []
            for node in nodes {
                guard let lowered = lower(node) else { return nil }
                result.append(lowered)
            }
            return result
        }

        private mutating func newID() -> Int {
            nextID += 1
            return nextID
        }
    }
}
