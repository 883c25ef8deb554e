extension PatternSynthesizer {
    /// What repeats of a class, `.` or class escape cycle through: at most 64, printable ones first.
    /// Empty for a set nothing can satisfy (`[]`), which makes that path of the pattern fail.
    ///
    /// A set's written ranges give their characters in order (`[A-Z]` → "ABC…", as a reader
    /// expects). What the ranges do not spell out (a negation, `\p{…}`, `\D` or `\S` inside brackets)
    /// takes what it admits from ``candidates``. JSON Schema has no flags, so the engine has no
    /// case-insensitive sets to mind.
    static func members(of set: RegexCharacterSet) -> [UInt32] {
        var result: [UInt32] = []
        var seen = Set<UInt32>()
        func add(_ value: UInt32) {
            if Unicode.Scalar(value) != nil, seen.insert(value).inserted { result.append(value) }
        }
        if !set.negated {
            for range in readingOrder(set.ranges) {
                // Enough for 64 printable ones even when the range starts among control characters.
                for value in range.lowerBound...min(range.upperBound, range.lowerBound + 127) { add(value) }
            }
        }
        if set.negated || !set.properties.isEmpty || !set.negatedProperties.isEmpty || !set.nested.isEmpty {
            for value in candidates where set.contains(value) { add(value) }
        }
        let printable = result.filter(isPrintable)
        return Array((printable + result.filter { !isPrintable($0) }).prefix(64))
    }

    /// `\w` reads more like an identifier lowercase first ("abc", not "012"), so the run of ranges
    /// it adds (digits first in `RegexCharacterSet.wordCharacters`) is reordered wherever it appears.
    private static func readingOrder(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        let word = RegexCharacterSet.wordCharacters.ranges
        guard ranges.count >= word.count,
            let start = (0...(ranges.count - word.count)).first(where: { ranges[$0..<($0 + word.count)].elementsEqual(word) })
        else { return ranges }
        var result = ranges
        result.replaceSubrange(start..<(start + word.count), with: [97...122, 65...90, 48...57, 95...95])
        return result
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

/// What `\s` matches, space first: it is the plain one.
private let whitespace: [UInt32] = [32] + RegexCharacterSet.whitespace.ranges.flatMap { Array($0) }

/// Not a control, a line break or an invisible space: what reads well in a fixture.
private func isPrintable(_ value: UInt32) -> Bool {
    value == 32 || (value > 32 && value != 0x7F && !(0x80...0xA0).contains(value) && !RegexCharacterSet.whitespace.contains(value))
}
