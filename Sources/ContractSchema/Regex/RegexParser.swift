/// Parses ECMA-262 pattern syntax in Unicode mode (the `u` flag): the strict grammar, without the
/// web-compatibility leniencies of Annex B, so `\a`, a lone `{` or `(?i)` are errors.
struct RegexParser {
    private let scalars: [UInt32]
    private var position = 0
    private var captureCount = 0
    private var groupNames: [String: Int] = [:]
    /// Backreferences by name, checked once every group is known (a name may be used before its group).
    private var namedReferences: [(name: String, offset: Int)] = []
    private var numberedReferences: [(number: Int, offset: Int)] = []
    /// Groups open at `position`. Parsing, compiling and matching each take a few stack frames
    /// per level, so a pattern nesting thousands of groups would overflow the stack: refused,
    /// far beyond any real pattern.
    private var groupDepth = 0
    static let maximumGroupDepth = 256

    init(_ pattern: String) {
        scalars = pattern.unicodeScalars.map(\.value)
    }

    mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        // Count capturing groups first: `\2` may come before the second group opens.
        let totalCaptures = countCaptures()
        let node = try parseDisjunction()
        if position < scalars.count {
            throw error(scalars[position] == UInt32(UInt8(ascii: ")")) ? "unmatched ')'" : "unexpected '\(character(scalars[position]))'")
        }
        for reference in numberedReferences where reference.number > totalCaptures {
            throw RegexSyntaxError(message: "backreference '\\\(reference.number)' names no group", offset: reference.offset)
        }
        for reference in namedReferences where groupNames[reference.name] == nil {
            throw RegexSyntaxError(message: "backreference '\\k<\(reference.name)>' names no group", offset: reference.offset)
        }
        return resolveNamedReferences(node)
    }

    // MARK: Structure

    private mutating func parseDisjunction() throws(RegexSyntaxError) -> RegexNode {
        var alternatives = [try parseAlternative()]
        while peek(is: "|") {
            position += 1
            alternatives.append(try parseAlternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func parseAlternative() throws(RegexSyntaxError) -> RegexNode {
        var terms: [RegexNode] = []
        while position < scalars.count, !peek(is: "|"), !peek(is: ")") {
            terms.append(try parseTerm())
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .sequence(terms)
        }
    }

    private mutating func parseTerm() throws(RegexSyntaxError) -> RegexNode {
        let start = position
        let current = scalars[position]
        var atom: RegexNode
        var quantifiable = true
        switch current {
        case ascii("^"):
            position += 1
            return .lineStart
        case ascii("$"):
            position += 1
            return .lineEnd
        case ascii("\\") where position + 1 < scalars.count && (scalars[position + 1] == ascii("b") || scalars[position + 1] == ascii("B")):
            let negated = scalars[position + 1] == ascii("B")
            position += 2
            return .wordBoundary(negated: negated)
        case ascii("("):
            (atom, quantifiable) = try parseGroup()
        case ascii("."):
            position += 1
            atom = .set(.notLineTerminator)
        case ascii("["):
            atom = .set(try parseClass())
        case ascii("\\"):
            atom = try parseAtomEscape()
        case ascii("*"), ascii("+"), ascii("?"):
            throw error("nothing to repeat before '\(character(current))'")
        case ascii("{"):
            throw error(isQuantifierBrace() ? "nothing to repeat before '{'" : "a lone '{' must be escaped as '\\{'")
        case ascii("}"):
            throw error("a lone '}' must be escaped as '\\}'")
        case ascii("]"):
            throw error("a lone ']' must be escaped as '\\]'")
        default:
            position += 1
            atom = .scalar(current)
        }
        guard let (minimum, maximum, greedy) = try parseQuantifier() else { return atom }
        guard quantifiable else {
            throw RegexSyntaxError(message: "a lookaround assertion cannot be repeated", offset: start)
        }
        return .repetition(atom, min: minimum, max: maximum, greedy: greedy)
    }

    private mutating func parseGroup() throws(RegexSyntaxError) -> (RegexNode, quantifiable: Bool) {
        let start = position
        guard groupDepth < Self.maximumGroupDepth else { throw error("groups nest deeper than \(Self.maximumGroupDepth) levels") }
        groupDepth += 1
        defer { groupDepth -= 1 }
        position += 1
        var capture: Int?
        var lookaround: (ahead: Bool, negated: Bool)?
        if peek(is: "?") {
            position += 1
            guard position < scalars.count else { throw error("unterminated group") }
            switch scalars[position] {
            case ascii(":"): position += 1
            case ascii("="): position += 1; lookaround = (true, false)
            case ascii("!"): position += 1; lookaround = (true, true)
            case ascii("<") where position + 1 < scalars.count && (scalars[position + 1] == ascii("=") || scalars[position + 1] == ascii("!")):
                lookaround = (false, scalars[position + 1] == ascii("!"))
                position += 2
            case ascii("<"):
                position += 1
                let name = try parseGroupName()
                guard groupNames[name] == nil else { throw error("the group name '\(name)' is used twice") }
                captureCount += 1
                capture = captureCount
                groupNames[name] = captureCount
            default:
                throw error("invalid group '(?\(character(scalars[position]))': expected '(?:', '(?=', '(?!', '(?<=', '(?<!' or '(?<name>'")
            }
        } else {
            captureCount += 1
            capture = captureCount
        }
        let body = try parseDisjunction()
        guard peek(is: ")") else { throw RegexSyntaxError(message: "unterminated group", offset: start) }
        position += 1
        if let lookaround {
            // Unicode mode forbids quantifying any lookaround.
            return (.lookaround(body, ahead: lookaround.ahead, negated: lookaround.negated), false)
        }
        return (.group(body, capture: capture), true)
    }

    private mutating func parseGroupName() throws(RegexSyntaxError) -> String {
        var name = ""
        while position < scalars.count, scalars[position] != ascii(">") {
            guard let scalar = Unicode.Scalar(scalars[position]),
                scalar == "$" || scalar == "_" || scalar.properties.isIDContinue && (!name.isEmpty || scalar.properties.isIDStart)
            else { throw error("invalid character in a group name") }
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard !name.isEmpty, position < scalars.count else { throw error("unterminated group name, expected '>'") }
        position += 1
        return name
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each optionally followed by `?` (lazy).
    private mutating func parseQuantifier() throws(RegexSyntaxError) -> (Int, Int?, Bool)? {
        guard position < scalars.count else { return nil }
        var minimum: Int
        var maximum: Int?
        switch scalars[position] {
        case ascii("*"): (minimum, maximum) = (0, nil); position += 1
        case ascii("+"): (minimum, maximum) = (1, nil); position += 1
        case ascii("?"): (minimum, maximum) = (0, 1); position += 1
        case ascii("{"):
            guard isQuantifierBrace() else { throw error("a lone '{' must be escaped as '\\{'") }
            position += 1
            minimum = parseDecimal() ?? 0
            maximum = minimum
            if peek(is: ",") {
                position += 1
                maximum = parseDecimal()
            }
            position += 1  // the '}' that isQuantifierBrace saw
            if let maximum, maximum < minimum { throw error("numbers out of order in a {} quantifier") }
        default:
            return nil
        }
        var greedy = true
        if peek(is: "?") {
            position += 1
            greedy = false
        }
        return (minimum, maximum, greedy)
    }

    /// Whether the `{` here starts `{n}`, `{n,}` or `{n,m}`.
    private func isQuantifierBrace() -> Bool {
        var index = position + 1
        var digits = 0
        while index < scalars.count, isDigit(scalars[index]) { index += 1; digits += 1 }
        guard digits > 0, index < scalars.count else { return false }
        if scalars[index] == ascii(",") {
            index += 1
            while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        }
        return index < scalars.count && scalars[index] == ascii("}")
    }

    private mutating func parseDecimal() -> Int? {
        var value: Int?
        while position < scalars.count, isDigit(scalars[position]) {
            let digit = Int(scalars[position] - ascii("0"))
            value = min((value ?? 0) * 10 + digit, 100_000)  // saturate: larger counts behave alike
            position += 1
        }
        return value
    }

    // MARK: Escapes

    private mutating func parseAtomEscape() throws(RegexSyntaxError) -> RegexNode {
        let start = position
        position += 1
        guard position < scalars.count else { throw error("'\\' at the end of the pattern") }
        let current = scalars[position]
        if isDigit(current) && current != ascii("0") {
            let number = parseDecimal() ?? 0
            numberedReferences.append((number, start))
            return .backreference(number)
        }
        if current == ascii("k") {
            position += 1
            guard peek(is: "<") else { throw error("'\\k' must be followed by '<name>'") }
            position += 1
            let name = try parseGroupName()
            namedReferences.append((name, start))
            return .backreference(-(namedReferences.count))  // resolved once all groups are known
        }
        if let set = try parseClassEscape() { return .set(set) }
        return .scalar(try parseCharacterEscape(inClass: false))
    }

    /// `\d \D \s \S \w \W \p{…} \P{…}`; nil when the escape is something else.
    private mutating func parseClassEscape() throws(RegexSyntaxError) -> RegexCharacterSet? {
        let current = scalars[position]
        switch current {
        case ascii("d"), ascii("D"), ascii("s"), ascii("S"), ascii("w"), ascii("W"):
            position += 1
            var set: RegexCharacterSet
            switch current {
            case ascii("d"), ascii("D"): set = .digits
            case ascii("s"), ascii("S"): set = .whitespace
            default: set = .wordCharacters
            }
            set.negated = current == ascii("D") || current == ascii("S") || current == ascii("W")
            return set
        case ascii("p"), ascii("P"):
            let start = position - 1
            position += 1
            guard peek(is: "{") else { throw error("'\\p' must be followed by '{property}'") }
            position += 1
            var name = ""
            while position < scalars.count, scalars[position] != ascii("}") {
                name.unicodeScalars.append(Unicode.Scalar(scalars[position]) ?? " ")
                position += 1
            }
            guard position < scalars.count else { throw error("unterminated '\\p{'") }
            position += 1
            guard let property = UnicodePropertyClass(name: name) else {
                throw RegexSyntaxError(message: "unknown or unsupported Unicode property '\(name)'", offset: start)
            }
            var set = RegexCharacterSet()
            set.add(property)
            set.negated = current == ascii("P")
            return set
        default:
            return nil
        }
    }

    /// A single-character escape after the backslash; in classes `\b` is backspace and `\-` a hyphen.
    private mutating func parseCharacterEscape(inClass: Bool) throws(RegexSyntaxError) -> UInt32 {
        let current = scalars[position]
        position += 1
        switch current {
        case ascii("t"): return 9
        case ascii("n"): return 10
        case ascii("v"): return 11
        case ascii("f"): return 12
        case ascii("r"): return 13
        case ascii("b") where inClass: return 8
        case ascii("-") where inClass: return current
        case ascii("0"):
            if position < scalars.count, isDigit(scalars[position]) { throw error("octal escapes are not allowed") }
            return 0
        case ascii("c"):
            guard position < scalars.count, isASCIILetter(scalars[position]) else { throw error("'\\c' must be followed by a letter") }
            position += 1
            return scalars[position - 1] % 32
        case ascii("x"):
            guard let value = parseHex(count: 2) else { throw error("'\\x' must be followed by two hexadecimal digits") }
            return value
        case ascii("u"):
            return try parseUnicodeEscape()
        default:
            // Identity escapes in Unicode mode: only syntax characters and '/'.
            if "^$\\.*+?()[]{}|/".unicodeScalars.contains(where: { $0.value == current }) { return current }
            position -= 1
            throw error("invalid escape '\\\(character(current))'")
        }
    }

    private mutating func parseUnicodeEscape() throws(RegexSyntaxError) -> UInt32 {
        if peek(is: "{") {
            position += 1
            var value: UInt32 = 0
            var digits = 0
            while position < scalars.count, let digit = hexValue(scalars[position]) {
                value = value &* 16 &+ digit
                digits += 1
                position += 1
                if value > 0x10FFFF { throw error("'\\u{…}' is beyond U+10FFFF") }
            }
            guard digits > 0, peek(is: "}") else { throw error("'\\u{' must hold hexadecimal digits and end with '}'") }
            position += 1
            return value
        }
        guard let unit = parseHex(count: 4) else { throw error("'\\u' must be followed by four hexadecimal digits or '{…}'") }
        // A high surrogate escape followed by a low one is one code point.
        if (0xD800...0xDBFF).contains(unit), position + 5 < scalars.count + 0, scalars[position] == ascii("\\"), scalars[position + 1] == ascii("u") {
            let saved = position
            position += 2
            if let low = parseHex(count: 4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            position = saved
        }
        return unit
    }

    private mutating func parseHex(count: Int) -> UInt32? {
        guard position + count <= scalars.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let digit = hexValue(scalars[position + offset]) else { return nil }
            value = value * 16 + digit
        }
        position += count
        return value
    }

    // MARK: Classes

    private mutating func parseClass() throws(RegexSyntaxError) -> RegexCharacterSet {
        let start = position
        position += 1
        var set = RegexCharacterSet()
        if peek(is: "^") {
            position += 1
            set.negated = true
        }
        while true {
            guard position < scalars.count else { throw RegexSyntaxError(message: "unterminated character class", offset: start) }
            if scalars[position] == ascii("]") {
                position += 1
                return set
            }
            let first = try parseClassAtom()
            if peek(is: "-"), position + 1 < scalars.count, scalars[position + 1] != ascii("]") {
                position += 1
                let second = try parseClassAtom()
                guard case .scalar(let low) = first, case .scalar(let high) = second else {
                    throw error("a class escape such as '\\d' cannot be the end of a range")
                }
                guard low <= high else { throw error("range out of order in character class") }
                set.add(low...high)
            } else {
                switch first {
                case .scalar(let value): set.add(value...value)
                case .set(let inner): set.add(inner)
                }
            }
        }
    }

    private enum ClassAtom {
        case scalar(UInt32)
        case set(RegexCharacterSet)
    }

    private mutating func parseClassAtom() throws(RegexSyntaxError) -> ClassAtom {
        let current = scalars[position]
        guard current == ascii("\\") else {
            position += 1
            return .scalar(current)
        }
        position += 1
        guard position < scalars.count else { throw error("'\\' at the end of the pattern") }
        if let set = try parseClassEscape() { return .set(set) }
        return .scalar(try parseCharacterEscape(inClass: true))
    }

    // MARK: Helpers

    private func countCaptures() -> Int {
        var count = 0
        var index = 0
        var inClass = false
        while index < scalars.count {
            let current = scalars[index]
            if current == ascii("\\") {
                index += 2
                continue
            }
            if inClass {
                if current == ascii("]") { inClass = false }
            } else if current == ascii("[") {
                inClass = true
            } else if current == ascii("(") {
                let next = index + 1 < scalars.count ? scalars[index + 1] : 0
                let afterNext = index + 2 < scalars.count ? scalars[index + 2] : 0
                if next != ascii("?") || (afterNext == ascii("<") && index + 3 < scalars.count
                    && scalars[index + 3] != ascii("=") && scalars[index + 3] != ascii("!"))
                {
                    count += 1
                }
            }
            index += 1
        }
        return count
    }

    /// Named backreferences were parsed as negative placeholders; give them their group numbers.
    private func resolveNamedReferences(_ node: RegexNode) -> RegexNode {
        switch node {
        case .backreference(let number) where number < 0:
            return .backreference(groupNames[namedReferences[-number - 1].name] ?? 0)
        case .sequence(let nodes): return .sequence(nodes.map(resolveNamedReferences))
        case .alternation(let nodes): return .alternation(nodes.map(resolveNamedReferences))
        case .group(let inner, let capture): return .group(resolveNamedReferences(inner), capture: capture)
        case .repetition(let inner, let minimum, let maximum, let greedy):
            return .repetition(resolveNamedReferences(inner), min: minimum, max: maximum, greedy: greedy)
        case .lookaround(let inner, let ahead, let negated): return .lookaround(resolveNamedReferences(inner), ahead: ahead, negated: negated)
        default: return node
        }
    }

    private func peek(is character: Character) -> Bool {
        position < scalars.count && scalars[position] == character.unicodeScalars.first?.value
    }

    private func error(_ message: String) -> RegexSyntaxError {
        RegexSyntaxError(message: message, offset: position)
    }

    private func character(_ value: UInt32) -> String {
        Unicode.Scalar(value).map { String(Character($0)) } ?? "?"
    }
}

private func ascii(_ character: Unicode.Scalar) -> UInt32 { character.value }
private func isDigit(_ value: UInt32) -> Bool { value >= 48 && value <= 57 }
private func isASCIILetter(_ value: UInt32) -> Bool { (value >= 65 && value <= 90) || (value >= 97 && value <= 122) }
private func hexValue(_ value: UInt32) -> UInt32? {
    switch value {
    case 48...57: value - 48
    case 65...70: value - 55
    case 97...102: value - 87
    default: nil
    }
}
