/// An ECMA-262 regular expression (with the `u` flag, as JSON Schema uses them), compiled once
/// and then used from many threads.
///
/// JSON Schema's `pattern`, `patternProperties` and the `regex` format follow ECMA-262, which
/// differs from Swift's `Regex` (`\d` is ASCII only, `$` never matches before a final newline,
/// invalid escapes such as `\a` are errors), so the validator carries its own engine: a parser
/// to a small instruction program, run by a backtracking machine over Unicode scalars.
public struct ECMARegex: Sendable {
    public let pattern: String
    let program: RegexProgram
    /// Set for anchored sequences of ASCII runs, which it matches without the machine.
    let sequence: AnchoredSequenceMatcher?

    /// The default bound on backtracking steps; beyond it `matches(_:)` answers no rather than hang.
    public static let defaultStepLimit = 1_000_000

    public init(_ pattern: String) throws(RegexSyntaxError) {
        self.pattern = pattern
        var parser = RegexParser(pattern)
        let tree = try parser.parse()
        program = RegexCompiler.compile(tree)
        sequence = AnchoredSequenceMatcher(tree)
    }

    /// The same expression run by the backtracking machine alone: tests compare the fast matcher with it.
    init(machineOnlyFrom regex: ECMARegex) {
        pattern = regex.pattern
        program = regex.program
        sequence = nil
    }

    /// True when the pattern matches anywhere in `string` (`RegExp.prototype.test`). A pattern that
    /// backtracks catastrophically on this input counts as not matching.
    public func matches(_ string: String) -> Bool {
        matches(string, stepLimit: Self.defaultStepLimit) == .matched
    }

    /// Like ``matches(_:)``, but says when it gave up after `stepLimit` steps.
    public func matches(_ string: String, stepLimit: Int) -> RegexMatchResult {
        if let result = string.utf8.withContiguousStorageIfAvailable({ matches(utf8: $0, stepLimit: stepLimit) }) { return result }
        return Array(string.utf8).withUnsafeBufferPointer { matches(utf8: $0, stepLimit: stepLimit) }
    }

    /// Matches UTF-8 text in place: ASCII (most API values) without decoding or copying.
    public func matches(utf8 bytes: UnsafeBufferPointer<UInt8>, stepLimit: Int = ECMARegex.defaultStepLimit) -> RegexMatchResult {
        if let sequence { return sequence.matches(bytes) ? .matched : .notMatched }
        if !bytes.contains(where: { $0 >= 0x80 }) {
            var machine = RegexMachine(input: ASCIIInput(bytes: bytes), stepLimit: stepLimit)
            return machine.search(program)
        }
        let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value)
        var machine = RegexMachine(input: ScalarInput(scalars: scalars), stepLimit: stepLimit)
        return machine.search(program)
    }

    /// The first match in `string` (`RegExp.prototype.exec`): its text, and each group's (nil for
    /// a group that took no part). Nil when the pattern does not match, or gives up after
    /// `stepLimit` backtracking steps.
    public func firstMatch(in string: String, stepLimit: Int = ECMARegex.defaultStepLimit) -> (text: String, groups: [String?])? {
        search(in: string, stepLimit: stepLimit).match
    }

    /// Like ``firstMatch(in:stepLimit:)``, and whether a missing match is no match or a search
    /// that gave up: a message must not say a text lacks what was never fully looked for.
    public func search(in string: String, stepLimit: Int = ECMARegex.defaultStepLimit)
        -> (result: RegexMatchResult, match: (text: String, groups: [String?])?)
    {
        let scalars = Array(string.unicodeScalars)
        var machine = RegexMachine(input: ScalarInput(scalars: scalars.map(\.value)), stepLimit: stepLimit)
        let (result, slots) = machine.searchGroups(program)
        guard result == .matched else { return (result, nil) }
        func text(_ from: Int, _ to: Int) -> String? {
            guard from >= 0, to >= from, to <= scalars.count else { return nil }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[from..<to])
            return String(view)
        }
        let groups = (0..<program.groupCount).map { index in
            let group = index + 1
            return 2 * group + 1 < slots.count ? text(slots[2 * group], slots[2 * group + 1]) : nil
        }
        return (.matched, (text(slots[0], slots[1]) ?? "", groups))
    }

    /// A step bound for one search over `count` characters: the default, plus a few steps per
    /// character, since an unanchored search tries every start and so spends at least one step
    /// on each. A long text (a 5 MB cursor link) is then searched to its end, and the work
    /// still grows only with the text.
    public static func stepLimit(forLength count: Int) -> Int {
        defaultStepLimit + 8 * count
    }

    /// True when the pattern matches anywhere in the UTF-8 text.
    public func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        matches(utf8: bytes, stepLimit: Self.defaultStepLimit) == .matched
    }
}

/// The outcome of a bounded match.
public enum RegexMatchResult: Sendable, Hashable {
    case matched
    case notMatched
    case gaveUp
}

/// Why a pattern is not an ECMA-262 regular expression.
public struct RegexSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `unterminated character class`.
    public var message: String
    /// Where, in Unicode scalars from the start of the pattern.
    public var offset: Int

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at offset \(offset)" }
}
