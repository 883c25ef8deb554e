extension PatternSynthesizer {
    /// A pattern's structure as far as producing text needs it. Captures, laziness and assertions do
    /// not change what a candidate looks like, so they are not kept: `^ $ \b \B` and lookarounds
    /// become `.assertion`, which produces nothing, and the final check with ``ECMARegex`` decides.
    indirect enum Node {
        case literal(UInt32)
        /// A class, `.` or a class escape; `id` keeps a counter per class so repeats cycle its members.
        case set(id: Int, ScalarClass)
        case sequence([Node])
        /// `id` names the choice so that a search can ask for another option of this very alternation.
        case alternation(id: Int, [Node])
        case repetition(Node, min: Int, max: Int?)
        case assertion
    }

    /// A pattern synthesis does not handle: a backreference, a syntax error, too deep nesting.
    struct Unsupported: Error {}

    /// Reads the ECMA-262 syntax with Annex B's leniency (`\a` is `a`, a lone `{` is literal), so
    /// that ``PatternSynthesizer/example(for:)`` still has an answer for patterns written for other
    /// engines; ``PatternSynthesizer/matchingExample(for:minLength:maxLength:)`` checks its output
    /// with the strict engine anyway.
    struct Parser {
        let scalars: [UInt32]
        var position = 0
        private var nextID = 0
        private var depth = 0
        /// Recursive descent: nesting beyond this gives up instead of exhausting the stack.
        private static let maximumDepth = 100

        init(_ pattern: String) {
            scalars = pattern.unicodeScalars.map(\.value)
        }

        mutating func parse() throws(Unsupported) -> Node {
            let node = try disjunction()
            guard position == scalars.count else { throw Unsupported() }  // an unmatched ')'
            return node
        }

        private mutating func disjunction() throws(Unsupported) -> Node {
            var options = [try sequence()]
            while peek("|") {
                position += 1
                options.append(try sequence())
            }
            return options.count == 1 ? options[0] : .alternation(id: newID(), options)
        }

        private mutating func sequence() throws(Unsupported) -> Node {
            var terms: [Node] = []
            while position < scalars.count, !peek("|"), !peek(")") {
                terms.append(try term())
            }
            return terms.count == 1 ? terms[0] : .sequence(terms)
        }

        private mutating func term() throws(Unsupported) -> Node {
            let current = scalars[position]
            let atom: Node
            switch current {
            case ascii("^"), ascii("$"):
                position += 1
                atom = .assertion
            case ascii("\\") where position + 1 < scalars.count && (scalars[position + 1] == ascii("b") || scalars[position + 1] == ascii("B")):
                position += 2
                atom = .assertion
            case ascii("("):
                atom = try group()
            case ascii("."):
                position += 1
                atom = .set(id: newID(), .dot)
            case ascii("["):
                atom = .set(id: newID(), try characterClass())
            case ascii("\\"):
                atom = try atomEscape()
            case ascii("*"), ascii("+"), ascii("?"):
                throw Unsupported()  // nothing to repeat
            case ascii("{") where isQuantifierBrace():
                throw Unsupported()
            default:
                position += 1
                atom = .literal(current)
            }
            guard let (minimum, maximum) = try quantifier() else { return atom }
            return .repetition(atom, min: minimum, max: maximum)
        }

        private mutating func group() throws(Unsupported) -> Node {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw Unsupported() }
            position += 1
            var isLookaround = false
            if peek("?") {
                position += 1
                guard position < scalars.count else { throw Unsupported() }
                switch scalars[position] {
                case ascii(":"):
                    position += 1
                case ascii("="), ascii("!"):
                    position += 1
                    isLookaround = true
                case ascii("<") where position + 1 < scalars.count && (scalars[position + 1] == ascii("=") || scalars[position + 1] == ascii("!")):
                    position += 2
                    isLookaround = true
                case ascii("<"):
                    // A named group: the name only matters to backreferences, which give up anyway.
                    while position < scalars.count, scalars[position] != ascii(">") { position += 1 }
                    guard position < scalars.count else { throw Unsupported() }
                    position += 1
                default:
                    throw Unsupported()  // inline flags such as `(?i)` are not ECMA-262
                }
            }
            let body = try disjunction()
            guard peek(")") else { throw Unsupported() }
            position += 1
            // A lookaround's body is parsed only so that its syntax errors and backreferences count.
            return isLookaround ? .assertion : body
        }

        // MARK: Helpers

        mutating func newID() -> Int {
            nextID += 1
            return nextID
        }

        func peek(_ character: Unicode.Scalar) -> Bool {
            position < scalars.count && scalars[position] == character.value
        }
    }
}

private func ascii(_ character: Unicode.Scalar) -> UInt32 { character.value }
