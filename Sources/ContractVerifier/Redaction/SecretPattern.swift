import ContractJSON

/// One secret and every form a server is likely to echo it in, character by character: raw,
/// JSON-escaped (`\"`, `\\`, `\/`, `\n`, `\u00e9`), percent-encoded in either case (`%2F`, `%2f`),
/// form-encoded (`+` for a space), as a JSON Pointer token (`~1`, `~0`) and as an XML or HTML
/// entity (`&amp;`, `&quot;`). Forms may mix within one echo, so a server that escapes some
/// characters one way and others another is still caught.
///
/// JSON escaping may be applied any number of times: a server that echoes the body it received
/// inside a JSON string escapes the escapes (`"` becomes `\"`, then `\\\"`), and one that
/// quotes that in an error message does it again. So the backslash that starts an escape is a run
/// of one or more backslashes (``backslashRun``), and an echo escaped to any depth is the same echo.
/// Percent-encoding may be applied again and again too (a URL inside a URL: `%2B`, `%252B`), and
/// after a JSON escape (`\/` as `%5C%2F`): the `%` of a percent form is `%` followed by any
/// number of `25` (``percentSign``), and each backslash of a run may be percent-encoded. Numeric
/// character references are read for every character, in either case, with any leading zeros.
///
/// Matching works on UTF-8 bytes and never backtracks more than the few forms of one character
/// allow, so masking stays linear in the text for a given secret.
struct SecretPattern: Sendable {
    /// A byte to match exactly (below 0x100), or `hexDigit | value`: one hexadecimal digit of that
    /// value in either case.
    typealias Unit = UInt16
    static let hexDigit: Unit = 0x100
    /// One or more backslashes: the start of a JSON escape, escaped again any number of times.
    static let backslashRun: Unit = 0x200
    /// Two or more of what a backslash run is made of: a backslash, escaped (`\\`) to any depth.
    static let doubleBackslashRun: Unit = 0x201
    /// `%`, then any number of `25` (the `%` itself percent-encoded); two hexadecimal digits follow.
    static let percentSign: Unit = 0x202
    /// Any number of `0`, the leading zeros of a numeric character reference (`&#039;`).
    static let zeros: Unit = 0x203
    /// `x` or `X`, as hexadecimal character references start (`&#x27;`, `&#X27;`).
    static let letterX: Unit = 0x204
    private static let backslash = UInt8(ascii: "\\")
    /// `\u0025`, the percent sign as a JSON escape, escaped any number of times over.
    private static let escapedPercent: [Unit] = [backslashRun, Unit(UInt8(ascii: "u"))] + [0, 0, 2, 5].map { hexDigit | Unit($0) }

    /// For each character of the secret, the unit sequences that stand for it.
    let characters: [[[Unit]]]
    /// The longest a whole echo can be, in bytes.
    let longestForm: Int
    /// Bytes an echo can start with, for skipping ahead cheaply.
    private let starts: ByteSet
    /// For each character, the bytes one of its forms starts with: a walk that resumes at a
    /// character is started only where the text can begin it.
    private let characterStarts: [ByteSet]
    /// Bytes that can appear anywhere in an echo: a cut next to any other byte leaves no part of one.
    private let anywhere: ByteSet
    /// For each character, what can follow a run of backslashes in its forms (`"`, `u`, `n`…),
    /// and whether a run alone can be it (`\` itself): a text that resumes with a long run is
    /// then scanned once, not once per character of the secret.
    private let runFollowers: [ByteSet]
    private let isRunAlone: [Bool]
    /// Whether a character is `%`, which a run's `%5C` may start too.
    private let isPercent: [Bool]
    /// Each character's first UTF-16 unit, which its `\uXXXX` form gives.
    private let firstUnits: [UInt16]
    /// Whether an echo is masked only where it stands as a value of its own, not inside a word
    /// (see ``ValueBoundary``): for a secret too short to be masked wherever its characters appear.
    let wholeValuesOnly: Bool

    init(_ secret: String, wholeValuesOnly: Bool = false) {
        self.wholeValuesOnly = wholeValuesOnly
        characters = secret.unicodeScalars.map(Self.forms)
        longestForm = characters.reduce(0) { $0 + ($1.map(\.count).max() ?? 0) }
        characterStarts = characters.map { forms in
            var starts = ByteSet()
            for form in forms {
                guard let unit = form.first else { continue }
                for byte in Self.bytes(matching: unit) { starts.insert(byte) }
            }
            return starts
        }
        starts = characterStarts.first ?? ByteSet()
        var anywhere = ByteSet()
        for form in characters.joined() {
            for unit in form {
                for byte in Self.bytes(matching: unit) { anywhere.insert(byte) }
            }
        }
        self.anywhere = anywhere
        runFollowers = characters.map { forms in
            var followers = ByteSet(Array("u".utf8))  // `\uXXXX`, and `\u0025` for a percent sign
            for form in forms where form.count > 1 && (form[0] == Self.backslashRun) {
                for byte in Self.bytes(matching: form[1]) { followers.insert(byte) }
            }
            return followers
        }
        isRunAlone = characters.map { forms in forms.contains { $0.first == Self.doubleBackslashRun || $0 == [Unit(Self.backslash)] } }
        firstUnits = secret.unicodeScalars.map { String($0).utf16.first ?? 0 }
        isPercent = secret.unicodeScalars.map { $0 == "%" }
    }

    /// The bytes a unit can match first.
    private static func bytes(matching unit: Unit) -> [UInt8] {
        switch unit {
        case ..<hexDigit: [UInt8(unit)]
        case backslashRun, doubleBackslashRun: Array("\\%25Cc".utf8)
        case percentSign: Array("%25\\u0".utf8)
        case zeros: Array("0".utf8)
        case letterX: Array("xX".utf8)
        default: Array("0123456789abcdefABCDEF".utf8)
        }
    }

    var count: Int { characters.count }

    // MARK: Forms of one character

    private static func forms(of scalar: Unicode.Scalar) -> [[Unit]] {
        let utf8 = Array(String(scalar).utf8)
        var forms: [[Unit]] = [utf8.map(Unit.init)]
        func add(_ text: String) { forms.append(text.utf8.map(Unit.init)) }
        // Percent-encoding of every byte, once or many times over; either case of hexadecimal digit.
        func percent(_ bytes: [UInt8]) -> [Unit] {
            bytes.flatMap { [percentSign, hexDigit | Unit($0 >> 4), hexDigit | Unit($0 & 0xF)] }
        }
        forms.append(percent(utf8))
        // JSON string escapes, each behind a run of backslashes: escaped once or many times over
        // (and percent-encoded after, the escaped punctuation too).
        let escapes: [Unicode.Scalar: String] = ["\"": "\"", "/": "/", "\u{8}": "b", "\u{C}": "f", "\n": "n", "\r": "r", "\t": "t"]
        if let escaped = escapes[scalar] {
            forms.append([backslashRun] + escaped.utf8.map(Unit.init))
            if scalar == "\"" || scalar == "/" { forms.append([backslashRun] + percent(utf8)) }
        }
        if scalar == "\\" { forms.append([doubleBackslashRun]) }
        forms.append(String(scalar).utf16.flatMap { unit in
            [backslashRun, Unit(UInt8(ascii: "u"))] + [12, 8, 4, 0].map { hexDigit | Unit((unit >> $0) & 0xF) }
        })
        switch scalar {
        case " ": add("+")  // application/x-www-form-urlencoded
        case "~": add("~0")  // a JSON Pointer token
        case "/": add("~1")
        case "&": add("&amp;")
        case "<": add("&lt;")
        case ">": add("&gt;")
        case "'": add("&apos;")
        default: break
        }
        if scalar == "\"" { add("&quot;") }
        // Numeric character references, decimal and hexadecimal, as HTML escapers write them:
        // `&#39;`, `&#039;` (PHP), `&#x27;` (Python), `&#X27;`, `&#34;` (Go), for any character.
        let ampersand = [Unit(UInt8(ascii: "&")), Unit(UInt8(ascii: "#"))]
        forms.append(ampersand + [zeros] + String(scalar.value).utf8.map(Unit.init) + [Unit(UInt8(ascii: ";"))])
        let hex = String(scalar.value, radix: 16)
        forms.append(ampersand + [letterX, zeros] + hex.utf8.map { hexDigit | Unit(PercentEncoding.hexValue($0) ?? 0) } + [Unit(UInt8(ascii: ";"))])
        return forms
    }

    // MARK: Matching

    /// How a unit sequence compares with the text at a position.
    private enum Comparison {
        case matches(end: Int)
        /// The text ends (at `limit`) before the form does, and what there is agrees with it.
        case cut
        case differs
    }

    /// Where a form can end when it is read from `position`: a percent sign followed by `25`s
    /// can be read several ways (`%2525` is `%` encoded twice, or `%25` then the characters `25`).
    private struct Ends {
        var ends: [Int] = []
        /// Some reading ran into `limit` with what there was agreeing.
        var cut = false
    }

    /// The first way the form matches, else whether one was cut, else differs.
    private static func compare(_ form: [Unit], from formStart: Int = 0, _ text: UnsafeBufferPointer<UInt8>, at position: Int, limit: Int) -> Comparison {
        var found = Ends()
        match(form, from: formStart, text, at: position, limit: limit, into: &found)
        if let end = found.ends.first { return .matches(end: end) }
        return found.cut ? .cut : .differs
    }

    /// A percent sign followed by this many `25`s is read every way up to it; past it, only the
    /// first and last few (a text of thousands of `25`s is a run, not many readings of one).
    private static let readingsOfPercent = 8

    private static func match(_ form: [Unit], from formStart: Int, _ text: UnsafeBufferPointer<UInt8>, at position: Int, limit: Int, into found: inout Ends) {
        var index = position
        for unitIndex in formStart..<form.count {
            let unit = form[unitIndex]
            guard index < limit else {
                found.cut = true
                return
            }
            let byte = text[index]
            switch unit {
            case backslashRun, doubleBackslashRun:
                // As many backslashes (or percent-encoded ones) as the text has here.
                var end = index
                var count = 0
                scan: while true {
                    switch Self.runElement(at: end, in: text, limit: limit) {
                    case .element(let next): (end, count) = (next, count + 1)
                    case .cut:
                        found.cut = true
                        return
                    case .none: break scan
                    }
                }
                guard count >= (unit == doubleBackslashRun ? 2 : 1) else { return }
                index = end
                continue
            case percentSign:
                // `%`, or `%` written as a JSON escape (`\u0025`, behind a run of backslashes).
                var next: Int
                if byte == UInt8(ascii: "%") {
                    next = index + 1
                } else {
                    switch compare(Self.escapedPercent, text, at: index, limit: limit) {
                    case .matches(let end): next = end
                    case .cut:
                        found.cut = true
                        return
                    case .differs: return
                    }
                }
                var pairs = 0
                while next + 2 * pairs + 1 < limit, text[next + 2 * pairs] == UInt8(ascii: "2"), text[next + 2 * pairs + 1] == UInt8(ascii: "5") {
                    pairs += 1
                }
                // The byte's two digits follow any number of the `25`s: all of them (the `%`
                // encoded that many times more), or fewer when the byte is `%` itself or the
                // text goes on with `25`.
                let readings = pairs <= 2 * readingsOfPercent
                    ? Array(0...pairs) : Array(0..<readingsOfPercent) + Array((pairs - readingsOfPercent)...pairs)
                for taken in readings.reversed() {
                    match(form, from: unitIndex + 1, text, at: next + 2 * taken, limit: limit, into: &found)
                }
                return
            case zeros:
                while index < limit, text[index] == UInt8(ascii: "0") { index += 1 }
                continue
            case letterX:
                guard byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X") else { return }
                index += 1
                continue
            default:
                break
            }
            if unit < hexDigit {
                guard byte == UInt8(unit) else { return }
            } else {
                guard PercentEncoding.hexValue(byte) == UInt8(unit & 0xF) else { return }
            }
            index += 1
        }
        found.ends.append(index)
    }


    /// What a walk over characters `first...` from a set of positions reached.
    private struct Walk {
        /// Positions where the last character's form ended (empty: the text differs).
        var ends: [Int] = []
        /// The most characters touched by a path that ran into `limit`.
        var cutAfter = 0
    }

    /// Follows the secret's characters from `first` on, from each position in `positions`, as far
    /// as the text agrees, stopping at `limit`.
    private func walk(_ text: UnsafeBufferPointer<UInt8>, from positions: [Int], first: Int, limit: Int) -> Walk {
        var walk = Walk()
        var frontier = positions
        var index = first
        while index < characters.count, !frontier.isEmpty {
            var next: [Int] = []
            for position in frontier {
                if position == limit {
                    walk.cutAfter = max(walk.cutAfter, index)
                    continue
                }
                for form in characters[index] {
                    var found = Ends()
                    Self.match(form, from: 0, text, at: position, limit: limit, into: &found)
                    for end in found.ends where !next.contains(end) { next.append(end) }
                    if found.cut { walk.cutAfter = max(walk.cutAfter, index + 1) }
                }
            }
            frontier = next
            index += 1
        }
        if index == characters.count { walk.ends = frontier }
        return walk
    }

    /// Every whole echo in `text`, as byte ranges (for a short secret, those that stand as values).
    func occurrences(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var position = 0
        while position < text.count {
            // Inside a run of backslashes, an echo found here would have been found where the run
            // starts (a run is as long as the text has it): skipping keeps a long run linear.
            guard starts.contains(text[position]), !Self.continuesRun(at: position, in: text), startsValue(at: position, in: text),
                let end = walk(text, from: [position], first: 0, limit: text.count).ends.filter({ endsValue(at: $0, in: text) }).max()
            else {
                position += 1
                continue
            }
            ranges.append(position..<end)
            position = end
        }
        return ranges
    }

    /// One of what a run of backslashes is made of: `\\`, or `%5C` percent-encoded any number of times.
    private enum RunElement {
        case element(end: Int)
        /// The text ends (at `limit`) inside one.
        case cut
        case none
    }

    private static func runElement(at position: Int, in text: UnsafeBufferPointer<UInt8>, limit: Int) -> RunElement {
        guard position < limit else { return .none }
        if text[position] == backslash { return .element(end: position + 1) }
        guard text[position] == UInt8(ascii: "%") else { return .none }
        var index = position + 1
        while true {
            guard index + 1 < limit else { return .cut }
            switch (text[index], text[index + 1]) {
            case (UInt8(ascii: "2"), UInt8(ascii: "5")): index += 2
            case (UInt8(ascii: "5"), UInt8(ascii: "C")), (UInt8(ascii: "5"), UInt8(ascii: "c")): return .element(end: index + 2)
            default: return .none
            }
        }
    }

    /// Whether an element of a run of backslashes starts at `position` right after another: an
    /// echo found from here would have been found where the run starts (a run is as long as the
    /// text has it), so no search starts here, and a long run stays linear.
    static func continuesRun(at position: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard position > 0, case .element = runElement(at: position, in: text, limit: text.count) else { return false }
        if text[position - 1] == backslash { return true }
        // `…%5C`, `…%255C`: the `%` before the `5C`, past any `25`.
        guard position >= 3, text[position - 2] == UInt8(ascii: "5"), text[position - 1] | 0x20 == UInt8(ascii: "c") else { return false }
        var index = position - 3
        while index >= 0 {
            if text[index] == UInt8(ascii: "%") { return true }
            guard index >= 1, text[index] == UInt8(ascii: "5"), text[index - 1] == UInt8(ascii: "2") else { return false }
            index -= 2
        }
        return false
    }

    /// Where a stretch that ends at `end` and holds `length` bytes other than backslashes starts:
    /// an echo is at most ``longestForm`` bytes but for its runs of backslashes, which escaping
    /// to any depth makes as long as it likes.
    static func start(ofContext length: Int, before end: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        var start = end
        var counted = 0
        while start > 0, counted < length || text[start - 1] == backslash {
            start -= 1
            if text[start] != backslash { counted += 1 }
        }
        return start
    }

    /// The same after `start`: where a stretch from it holding `length` bytes other than backslashes ends.
    static func end(ofContext length: Int, after start: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        var end = start
        var counted = 0
        while end < text.count, counted < length || text[end] == backslash {
            if text[end] != backslash { counted += 1 }
            end += 1
        }
        return end
    }

    /// Whether an echo may start at `position`: anywhere, or for a short secret only where a value does.
    private func startsValue(at position: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        !wholeValuesOnly || ValueBoundary.isBoundary(before: position, in: text)
    }

    /// Whether an echo may end at `position`: anywhere, or for a short secret only where a value does.
    private func endsValue(at position: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        !wholeValuesOnly || ValueBoundary.isBoundary(after: position, in: text)
    }

    /// The start of the longest part of an echo that ends exactly at `cut` (where a clip removed
    /// the rest), when it holds at least `minimum` characters of the secret.
    func prefix(endingAt cut: Int, in text: UnsafeBufferPointer<UInt8>, minimum: Int) -> Int? {
        // A text can hold any number of cut marks (a server may send `…` itself): most are ruled
        // out by one byte, and only a byte that can start an echo starts a walk.
        guard cut > 0, anywhere.contains(text[cut - 1]) else { return nil }
        let earliest = Self.start(ofContext: longestForm, before: cut, in: text)
        for start in earliest..<cut where starts.contains(text[start]) && !Self.continuesRun(at: start, in: text) && startsValue(at: start, in: text) {
            let walk = walk(text, from: [start], first: 0, limit: cut)
            let touched = walk.ends.contains(cut) ? characters.count : walk.cutAfter
            if touched >= minimum { return start }
        }
        return nil
    }

    /// The end of the longest part of an echo that starts exactly at `cut` (the text before it
    /// was clipped away) and runs to the secret's end or to `limit`, when it holds at least
    /// `minimum` characters of the secret. The cut may fall inside one character's form (`…2Fab`).
    func suffix(startingAt cut: Int, in text: UnsafeBufferPointer<UInt8>, limit: Int, minimum: Int) -> Int? {
        guard cut < limit, anywhere.contains(text[cut]) else { return nil }
        // A run of backslashes where the text resumes is scanned once: what follows it says which
        // characters can resume there.
        var after: Int?
        if case .element = Self.runElement(at: cut, in: text, limit: limit) {
            var end = cut
            while case .element(let next) = Self.runElement(at: end, in: text, limit: limit) { end = next }
            after = end
        }
        func canResume(_ index: Int) -> Bool {
            guard let after, after < limit, !isRunAlone[index], !isPercent[index] else { return true }
            let follower = text[after]
            guard runFollowers[index].contains(follower) else { return false }
            // `\uXXXX`: the character it stands for, or a percent sign (`\u0025`) starting a percent form.
            guard follower == UInt8(ascii: "u"), after + 4 < limit else { return true }
            let digits = (after + 1...after + 4).map { PercentEncoding.hexValue(text[$0]) }
            guard digits.allSatisfy({ $0 != nil }) else { return true }
            let unit = digits.reduce(UInt16(0)) { $0 << 4 | UInt16($1 ?? 0) }
            return unit == firstUnits[index] || unit == 0x25
        }
        var best: Int?
        /// `walk` began at character `first`, with `extra` characters touched before it.
        func record(_ walk: Walk, first: Int, extra: Int) {
            if let end = walk.ends.filter({ endsValue(at: $0, in: text) }).max(), characters.count - first + extra >= minimum {
                best = max(best ?? end, end)
            }
            if walk.cutAfter - first + extra >= minimum { best = limit }
        }
        for first in 1..<max(1, characters.count) {
            // The echo resumes at a character boundary…
            if characterStarts[first].contains(text[cut]), canResume(first) {
                record(walk(text, from: [cut], first: first, limit: limit), first: first, extra: 0)
            }
            // …or inside the form of the character before.
            var resumes: [Int] = []
            for form in characters[first - 1] where form.count > 1 {
                // A cut inside a run of backslashes leaves a shorter run, which is still one.
                let startsWithRun = form.first == Self.backslashRun || form.first == Self.doubleBackslashRun
                for start in (startsWithRun && canResume(first - 1) ? 0 : 1)..<form.count {
                    switch Self.compare(form, from: start, text, at: cut, limit: limit) {
                    case .matches(let end): if !resumes.contains(end) { resumes.append(end) }
                    case .cut: if 1 >= minimum { best = limit }
                    case .differs: break
                    }
                }
            }
            if !resumes.isEmpty { record(walk(text, from: resumes, first: first, limit: limit), first: first, extra: 1) }
        }
        return best
    }
}
