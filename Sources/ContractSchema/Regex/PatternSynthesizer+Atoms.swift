/// The parts of a term: quantifiers, escapes and character classes.
extension PatternSynthesizer.Parser {
    // Short names for the tree's types, which the parser's own file sees through PatternSynthesizer.
    typealias Node = PatternSynthesizer.Node
    typealias ScalarClass = PatternSynthesizer.ScalarClass
    typealias Unsupported = PatternSynthesizer.Unsupported

    /// `* + ? {n} {n,} {n,m}`, each possibly lazy (which changes nothing here); nil when none.
    mutating func quantifier() throws(Unsupported) -> (Int, Int?)? {
        guard position < scalars.count else { return nil }
        var result: (Int, Int?)
        switch scalars[position] {
        case ascii("*"): result = (0, nil)
        case ascii("+"): result = (1, nil)
        case ascii("?"): result = (0, 1)
        case ascii("{") where isQuantifierBrace():
            position += 1
            let minimum = decimal() ?? 0
            var maximum: Int? = minimum
            if peek(",") {
                position += 1
                maximum = decimal()
            }
            if let maximum, maximum < minimum { throw Unsupported() }
            result = (minimum, maximum)
        default:
            return nil
        }
        position += 1  // the quantifier character or the closing '}'
        if peek("?") { position += 1 }
        return result
    }

    func isQuantifierBrace() -> Bool {
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

    /// Saturates: counts beyond the bound behave alike, and the search caps lengths anyway.
    private mutating func decimal() -> Int? {
        var value: Int?
        while position < scalars.count, isDigit(scalars[position]) {
            value = min((value ?? 0) * 10 + Int(scalars[position] - ascii("0")), 100_000)
            position += 1
        }
        return value
    }

    mutating func atomEscape() throws(Unsupported) -> Node {
        position += 1
        guard position < scalars.count else { throw Unsupported() }
        let current = scalars[position]
        // Backreferences: text that repeats a capture is beyond this generator.
        if current != ascii("0") && isDigit(current) { throw Unsupported() }
        if current == ascii("k") && position + 1 < scalars.count && scalars[position + 1] == ascii("<") { throw Unsupported() }
        if let item = try classEscape() { return .set(id: newID(), ScalarClass(items: [item], negated: false)) }
        return .literal(try characterEscape(inClass: false))
    }

    /// `\d \D \w \W \s \S \p{…} \P{…}` at `position` (after the backslash), or nil.
    private mutating func classEscape() throws(Unsupported) -> ScalarClass.Item? {
        let current = scalars[position]
        let negated = current == ascii("D") || current == ascii("W") || current == ascii("S") || current == ascii("P")
        switch current {
        case ascii("d"), ascii("D"):
            position += 1
            return .digit(negated: negated)
        case ascii("w"), ascii("W"):
            position += 1
            return .word(negated: negated)
        case ascii("s"), ascii("S"):
            position += 1
            return .space(negated: negated)
        case ascii("p"), ascii("P"):
            guard position + 1 < scalars.count, scalars[position + 1] == ascii("{") else { return nil }
            var end = position + 2
            while end < scalars.count, scalars[end] != ascii("}") { end += 1 }
            guard end < scalars.count else { throw Unsupported() }
            var name = ""
            for value in scalars[(position + 2)..<end] { name.unicodeScalars.append(Unicode.Scalar(value) ?? " ") }
            guard let property = UnicodePropertyClass(name: name) else { throw Unsupported() }
            position = end + 1
            return .property(property, negated: negated)
        default:
            return nil
        }
    }

    /// One character after a backslash; unknown escapes stand for themselves (Annex B).
    private mutating func characterEscape(inClass: Bool) throws(Unsupported) -> UInt32 {
        let current = scalars[position]
        position += 1
        switch current {
        case ascii("t"): return 9
        case ascii("n"): return 10
        case ascii("v"): return 11
        case ascii("f"): return 12
        case ascii("r"): return 13
        case ascii("b") where inClass: return 8
        case ascii("0"):
            guard position >= scalars.count || !isDigit(scalars[position]) else { throw Unsupported() }  // octal
            return 0
        case ascii("c"):
            guard position < scalars.count, isASCIILetter(scalars[position]) else { throw Unsupported() }
            position += 1
            return scalars[position - 1] % 32
        case ascii("x"):
            return hex(count: 2) ?? current
        case ascii("u"):
            return unicodeEscape() ?? current
        default:
            return current
        }
    }

    /// `\uXXXX` (a surrogate pair of them is one code point) or `\u{…}`; nil when malformed.
    private mutating func unicodeEscape() -> UInt32? {
        if peek("{") {
            var end = position + 1
            var value: UInt32 = 0
            while end < scalars.count, let digit = hexValue(scalars[end]), value <= 0x10FFFF {
                value = value * 16 + digit
                end += 1
            }
            guard end > position + 1, end < scalars.count, scalars[end] == ascii("}"), value <= 0x10FFFF else { return nil }
            position = end + 1
            return value
        }
        guard let unit = hex(count: 4) else { return nil }
        if (0xD800...0xDBFF).contains(unit), position + 1 < scalars.count, scalars[position] == ascii("\\"), scalars[position + 1] == ascii("u") {
            let saved = position
            position += 2
            if let low = hex(count: 4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            position = saved
        }
        return unit
    }

    private mutating func hex(count: Int) -> UInt32? {
        guard position + count <= scalars.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let digit = hexValue(scalars[position + offset]) else { return nil }
            value = value * 16 + digit
        }
        position += count
        return value
    }

    mutating func characterClass() throws(Unsupported) -> ScalarClass {
        position += 1
        let negated = peek("^")
        if negated { position += 1 }
        var items: [ScalarClass.Item] = []
        while true {
            guard position < scalars.count else { throw Unsupported() }
            if scalars[position] == ascii("]") {
                position += 1
                return ScalarClass(items: items, negated: negated)
            }
            let first = try classAtom()
            guard peek("-"), position + 1 < scalars.count, scalars[position + 1] != ascii("]") else {
                items.append(first)
                continue
            }
            position += 1
            let second = try classAtom()
            if case .range(let low) = first, case .range(let high) = second, low.count == 1, high.count == 1 {
                guard low.lowerBound <= high.lowerBound else { throw Unsupported() }
                items.append(.range(low.lowerBound...high.lowerBound))
            } else {
                items += [first, .range(45...45), second]  // `[\d-z]`: Annex B reads the '-' literally
            }
        }
    }

    /// A single character (as a one-element range) or a class escape.
    private mutating func classAtom() throws(Unsupported) -> ScalarClass.Item {
        let current = scalars[position]
        guard current == ascii("\\") else {
            position += 1
            return .range(current...current)
        }
        position += 1
        guard position < scalars.count else { throw Unsupported() }
        if let item = try classEscape() { return item }
        if isDigit(scalars[position]) && scalars[position] != ascii("0") { throw Unsupported() }
        let value = try characterEscape(inClass: true)
        return .range(value...value)
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
