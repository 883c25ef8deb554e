extension PatternSynthesizer {
    /// A character class with the characters synthesis uses for it, in the order it uses them.
    struct ScalarClass {
        enum Item {
            case range(ClosedRange<UInt32>)
            case digit(negated: Bool)
            case word(negated: Bool)
            case space(negated: Bool)
            case property(UnicodePropertyClass, negated: Bool)

            func contains(_ value: UInt32) -> Bool {
                switch self {
                case .range(let range): range.contains(value)
                case .digit(let negated): (48...57).contains(value) != negated
                case .word(let negated): isWordCharacter(value) != negated
                case .space(let negated): whitespace.contains(value) != negated
                case .property(let property, let negated): (Unicode.Scalar(value).map(property.contains) ?? false) != negated
                }
            }
        }

        let items: [Item]
        let negated: Bool
        /// What repeats of this class cycle through: at most 64, printable ones first. Empty for a
        /// class nothing can satisfy (`[]`), which makes that path of the pattern fail.
        let members: [UInt32]

        init(items: [Item], negated: Bool) {
            self.items = items
            self.negated = negated
            members = Self.members(items, negated: negated)
        }

        /// What `.` matches: everything but line terminators.
        static let dot = ScalarClass(items: [.range(10...10), .range(13...13), .range(0x2028...0x2029)], negated: true)

        func contains(_ value: UInt32) -> Bool {
            items.contains { $0.contains(value) } != negated
        }

        /// Written ranges give their characters in order (`[A-Z]` → "ABC…", as a reader expects);
        /// negations and properties take what they admit from ``candidates``.
        private static func members(_ items: [Item], negated: Bool) -> [UInt32] {
            var result: [UInt32] = []
            if negated {
                for value in candidates where !items.contains(where: { $0.contains(value) }) {
                    result.append(value)
                    if result.count == 64 { break }
                }
                return result
            }
            var seen = Set<UInt32>()
            func add(_ value: UInt32) {
                if Unicode.Scalar(value) != nil, seen.insert(value).inserted { result.append(value) }
            }
            for item in items {
                switch item {
                case .range(let range):
                    // Enough for 64 printable ones even when the range starts among control characters.
                    for value in range.lowerBound...min(range.upperBound, range.lowerBound + 127) { add(value) }
                case .digit(negated: false): for value in 48...57 as ClosedRange<UInt32> { add(value) }
                case .word(negated: false): for value in wordOrder { add(value) }
                case .space(negated: false): for value in whitespace { add(value) }
                default: for value in candidates where item.contains(value) { add(value) }
                }
            }
            let printable = result.filter(isPrintable)
            return Array((printable + result.filter { !isPrintable($0) }).prefix(64))
        }
    }
}

/// The characters tried for negated classes, `.` and properties, best first: the fixed preference
/// list, the rest of the letters and digits, punctuation, then a few beyond ASCII for classes that
/// exclude all of ASCII, then whitespace and controls for the rare class that wants them.
private let candidates: [UInt32] = {
    var seen = Set<UInt32>()
    var result: [UInt32] = []
    let groups = [
        "abcxyzAB012_-.~ ", "defghijklmnopqrstuvwCDEFGHIJKLMNOPQRSTUVWXYZ3456789",
        "!\"#$%&'()*+,/:;<=>?@[\\]^`{|}", "éüßñÉΩж中あ١😀",
    ]
    for value in groups.flatMap({ $0.unicodeScalars.map(\.value) }) + whitespace + [0, 1, 0x7F, 0x85] where seen.insert(value).inserted {
        result.append(value)
    }
    return result
}()

/// `\w` with lowercase first, which reads more like an identifier than "ABC".
private let wordOrder: [UInt32] = Array(97...122) + Array(65...90) + Array(48...57) + [95]

/// ECMA-262's WhiteSpace and LineTerminator, what `\s` matches (space first: it is the plain one).
private let whitespace: [UInt32] = [
    32, 9, 10, 11, 12, 13, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
    0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
]

private func isWordCharacter(_ value: UInt32) -> Bool {
    (48...57).contains(value) || (65...90).contains(value) || (97...122).contains(value) || value == 95
}

/// Not a control, a line break or an invisible space: what reads well in a fixture.
private func isPrintable(_ value: UInt32) -> Bool {
    value == 32 || (value > 32 && value != 0x7F && !(0x80...0xA0).contains(value) && !whitespace.contains(value))
}
