/// The syntax tree of a regular expression.
indirect enum RegexNode: Sendable {
    case empty
    case scalar(UInt32)
    case set(RegexCharacterSet)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// A capturing group (index from 1) or a plain one (nil).
    case group(RegexNode, capture: Int?)
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case lookaround(RegexNode, ahead: Bool, negated: Bool)
    case backreference(Int)
}
