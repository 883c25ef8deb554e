/// The values a run must never show: those substituted for `${env:…}` placeholders and those of
/// credential headers given on the command line. Every text the verifier shows passes through
/// ``redact(_:)``, so a secret that a server echoes back is hidden too, in any of the forms
/// ``SecretPattern`` knows (raw, JSON-escaped, percent- or form-encoded, as a pointer token).
///
/// Texts are masked before they are clipped (``clip(_:to:)``, ``excerpt(of:around:radius:)``), so
/// a cut never leaves part of a secret; and because clips elsewhere (the schema validator's
/// messages) cut without knowing secrets, ``redact(_:)`` also masks what is left of a secret next
/// to a cut mark `…`, from ``partialMinimum`` characters on.
///
/// A secret shorter than ``wholeValueLength`` characters is masked only where it stands as a
/// value (``ValueBoundary``), so that a one-letter value does not mask that letter everywhere.
public struct Secrets: Sendable {
    public static let mask = "***"
    /// What every clip in the verifier marks a cut with.
    static let cutMark = "…"
    /// The fewest characters of a secret masked next to a cut: one character alone is too often
    /// an ordinary letter that happens to start a secret, and tells little.
    static let partialMinimum = 2
    /// How many cut marks from each end of a text are looked at for parts of echoes.
    static let partialCutMarks = 64
    /// Secrets shorter than this (in characters) are masked only where they stand as a value of
    /// their own, never inside a word (``ValueBoundary``): `TOKEN=h` must not make `http://`
    /// unreadable, and a value that short is guessed in a few tries anyway, so masking it inside
    /// other text would hide nothing. docs/SECURITY.md states the guarantee.
    public static let wholeValueLength = 4

    private let patterns: [SecretPattern]

    public init(_ values: some Sequence<String>) {
        // Longest first, so a secret that contains another is masked whole.
        patterns = Set(values.filter { !$0.isEmpty }).sorted { ($0.count, $0) > ($1.count, $1) }.map { secret in
            SecretPattern(secret, wholeValuesOnly: secret.unicodeScalars.count < Self.wholeValueLength)
        }
    }

    public var isEmpty: Bool { patterns.isEmpty }

    /// The longest any secret's echo can be, in bytes, leaving out its runs of backslashes.
    private var longestEcho: Int { patterns.map(\.longestForm).max() ?? 0 }

    /// Every whole echo in `body` that overlaps `window`, as byte ranges of `body`: for showing a
    /// window of a larger text. The echoes are searched for in the window widened by the longest
    /// echo on each side, backslashes not counted (an echo escaped many times over is mostly
    /// backslashes), so one that the window cuts is found whole.
    func echoes(overlapping window: Range<Int>, in body: [UInt8]) -> [Range<Int>] {
        guard !patterns.isEmpty, !window.isEmpty else { return [] }
        return body.withUnsafeBufferPointer { text in
            let wide = SecretPattern.start(ofContext: longestEcho, before: window.lowerBound, in: text)
                ..< SecretPattern.end(ofContext: longestEcho, after: window.upperBound, in: text)
            let part = UnsafeBufferPointer(rebasing: text[wide])
            return occurrences(in: part)
                .map { ($0.lowerBound + wide.lowerBound)..<($0.upperBound + wide.lowerBound) }
                .filter { $0.overlaps(window) }
        }
    }

    /// `text` with every echo of a secret, and every part of one next to a cut mark, as `***`.
    public func redact(_ text: String) -> String {
        guard !patterns.isEmpty else { return text }
        var bytes = Array(text.utf8)
        let ranges = bytes.withUnsafeBufferPointer { maskedRanges(in: $0, cutsAt: Self.cutMarks(in: $0)) }
        guard !ranges.isEmpty else { return text }
        bytes = Self.replacing(ranges, in: bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` masked, then cut to `length` characters with `…`.
    func clip(_ text: String, to length: Int) -> String {
        ResponseChecker.clip(redact(text), to: length)
    }

    /// Byte ranges to mask: whole echoes, and the parts of echoes that touch a cut.
    private func maskedRanges(in text: UnsafeBufferPointer<UInt8>, cutsAt cuts: [Range<Int>]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for pattern in patterns {
            ranges += pattern.occurrences(in: text)
            // A clip leaves a cut mark or two in a text; a server may send any number. Past the
            // first and last few, a part of an echo next to one is not looked for: whole echoes
            // always are, and the work stays linear however many marks a body holds.
            for (index, cut) in cuts.enumerated() where index < Self.partialCutMarks || index >= cuts.count - Self.partialCutMarks {
                let previousEnd = index > 0 ? cuts[index - 1].upperBound : 0
                if let start = pattern.prefix(endingAt: cut.lowerBound, in: text, minimum: Self.partialMinimum), start >= previousEnd {
                    ranges.append(start..<cut.lowerBound)
                }
                let nextStart = index + 1 < cuts.count ? cuts[index + 1].lowerBound : text.count
                if let end = pattern.suffix(startingAt: cut.upperBound, in: text, limit: nextStart, minimum: Self.partialMinimum) {
                    ranges.append(cut.upperBound..<end)
                }
            }
        }
        return Self.merged(ranges)
    }

    private static func cutMarks(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let mark = Array(cutMark.utf8)
        var cuts: [Range<Int>] = []
        var index = 0
        while index + mark.count <= text.count {
            if text[index] == mark[0], text[index + 1] == mark[1], text[index + 2] == mark[2] {
                cuts.append(index..<index + mark.count)
                index += mark.count
            } else {
                index += 1
            }
        }
        return cuts
    }

    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// `bytes` with each of the sorted, disjoint `ranges` replaced by the mask.
    static func replacing(_ ranges: [Range<Int>], in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        for range in ranges {
            result += bytes[position..<range.lowerBound]
            result += mask.utf8
            position = range.upperBound
        }
        result += bytes[position...]
        return result
    }

    /// Echo ranges of every secret in `text`, whole ones only (for a window cut out of a larger text).
    func occurrences(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        Self.merged(patterns.flatMap { $0.occurrences(in: text) })
    }
}
