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
    private static let backslash = UInt8(ascii: "\\")

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
    }

    /// The bytes a unit can match first.
    private static func bytes(matching unit: Unit) -> [UInt8] {
        if unit < hexDigit { return [UInt8(unit)] }
        if unit == backslashRun { return [backslash] }
        return Array("0123456789abcdefABCDEF".utf8)
    }

    var count: Int { characters.count }

    // MARK: Forms of one character

    private static func forms(of scalar: Unicode.Scalar) -> [[Unit]] {
        let utf8 = Array(String(scalar).utf8)
        var forms: [[Unit]] = [utf8.map(Unit.init)]
        func add(_ text: String) { forms.append(text.utf8.map(Unit.init)) }
        // Percent-encoding of every byte; either case of hexadecimal digit.
        forms.append(utf8.flatMap { [Unit(UInt8(ascii: "%")), hexDigit | Unit($0 >> 4), hexDigit | Unit($0 & 0xF)] })
        // JSON string escapes, each behind a run of backslashes: escaped once or many times over.
        let escapes: [Unicode.Scalar: String] = ["\"": "\"", "\\": "\\", "/": "/", "\u{8}": "b", "\u{C}": "f", "\n": "n", "\r": "r", "\t": "t"]
        if let escaped = escapes[scalar] { forms.append([backslashRun] + escaped.utf8.map(Unit.init)) }
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
        case "'": add("&#39;"); add("&apos;")
        default: break
        }
        if scalar == "\"" { add("&quot;") }
        // Numeric character references, as HTML escapers write them for punctuation:
        // `&#39;`, `&#039;` (PHP), `&#x27;` (Python), `&#34;` (Go).
        if !(scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) {
            let decimal = String(scalar.value)
            add("&#\(decimal);")
            if decimal.count < 3 { add("&#0\(decimal);") }
            let hex = String(scalar.value, radix: 16)
            forms.append(Array("&#x".utf8).map(Unit.init) + hex.utf8.map { hexDigit | Unit(Self.hexValue($0) ?? 0) } + [Unit(UInt8(ascii: ";"))])
        }
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

    private static func compare(_ form: [Unit], from formStart: Int = 0, _ text: UnsafeBufferPointer<UInt8>, at position: Int, limit: Int) -> Comparison {
        var index = position
        for unitIndex in formStart..<form.count {
            let unit = form[unitIndex]
            guard index < limit else { return .cut }
            let byte = text[index]
            if unit == backslashRun {
                // As many backslashes as the text has here, but for those the rest of the form
                // itself starts with (the form of `\` is a run, then the escaped backslash).
                var end = index
                while end < limit, text[end] == backslash { end += 1 }
                guard end < limit else { return .cut }
                var reserved = 0
                while unitIndex + 1 + reserved < form.count, form[unitIndex + 1 + reserved] == Unit(backslash) { reserved += 1 }
                guard end - index > reserved else { return .differs }
                index = end - reserved
                continue
            }
            if unit < hexDigit {
                guard byte == UInt8(unit) else { return .differs }
            } else {
                guard hexValue(byte) == UInt8(unit & 0xF) else { return .differs }
            }
            index += 1
        }
        return .matches(end: index)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
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
                    switch Self.compare(form, text, at: position, limit: limit) {
                    case .matches(let end): if !next.contains(end) { next.append(end) }
                    case .cut: walk.cutAfter = max(walk.cutAfter, index + 1)
                    case .differs: break
                    }
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

    /// Whether `position` is a backslash after another one.
    static func continuesRun(at position: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        position > 0 && text[position] == backslash && text[position - 1] == backslash
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
            if characterStarts[first].contains(text[cut]) {
                record(walk(text, from: [cut], first: first, limit: limit), first: first, extra: 0)
            }
            // …or inside the form of the character before.
            var resumes: [Int] = []
            for form in characters[first - 1] where form.count > 1 {
                // A cut inside a run of backslashes leaves a shorter run, which is still one.
                for start in (form.first == Self.backslashRun ? 0 : 1)..<form.count {
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
