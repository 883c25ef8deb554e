import ContractJSON
import ContractModel
import ContractSchema

/// The checks of `text` conditions and `binary` bodies. Whether a body passes is the model's to
/// say (``TextConditions/mismatches(_:regex:)``, ``BinaryExpectation/mismatches(_:)``, which
/// `contract fixtures` asks too before it writes a body); this turns each mismatch into a finding:
/// what was expected, what came, and where.
extension ResponseChecker {
    /// Bytes a hexadecimal excerpt shows.
    static let hexExcerptBytes = 32
    /// Bytes shown on each side of a difference between expected and received bytes.
    static let hexDifferenceBytes = 8
    /// Substrings of `contains` listed in one finding before "and N more".
    static let maxListedSubstrings = 5

    func checkText(_ body: [UInt8], _ conditions: TextConditions, _ declared: BodyDeclaration) -> [Finding] {
        let mismatches = conditions.mismatches(body, regex: regex)
        let charset = conditions.decodingCharset
        var findings: [Finding] = []
        if case .undecodable(let offset) = mismatches.first {
            findings.append(undecodable(body, at: offset, conditions, declared))
        } else {
            // A charset that decodes any byte does not make the body what its Content-Type says.
            if charset != .utf8, declared.isJSON || declared.declaresUTF8, let offset = BodyEncoding.firstInvalidUTF8(body) {
                findings.append(notUTF8(body, at: offset, because: declaredReason(declared)))
            }
            // A JSON body matched as text is still JSON to its clients.
            if declared.isJSON {
                if let finding = byteOrderMark(body) { findings.append(finding) }
                if let tape = try? JSONParser().parseTape(body) { findings += duplicateMembers(tape, body) }
            }
        }
        // In other text a byte order mark is allowed (RFC 3629 §6; decoders drop it), but it is
        // invisible in a message: say so.
        let bomNote = !declared.isJSON && charset == .utf8 && BodyEncoding.startsWithByteOrderMark(body)
            ? " (the body starts with a byte order mark, U+FEFF)" : ""
        let text = { charset.decode(body) }
        for mismatch in mismatches {
            switch mismatch {
            case .undecodable:
                continue
            case .notEqual:
                findings.append(notEqual(body, conditions.equals ?? "", charset, text(), bomNote))
            case .noMatch:
                findings.append(Finding(kind: .body, rule: "body.text.pattern", message: "expected a body matching '\(conditions.pattern ?? "")', found '\(clip(text()))'\(bomNote)"))
            case .invalidPattern:
                findings.append(Finding(kind: .body, rule: "body.text.pattern-invalid", message: "the body pattern '\(conditions.pattern ?? "")' is not a valid regular expression"))
            case .missing(let missing):
                findings.append(missingSubstrings(body, missing, of: conditions.contains.count, charset, text(), bomNote))
            case .length(let count):
                // The end of the text: where a cut or an addition shows.
                findings.append(Finding(
                    kind: .body, rule: "body.text.length", message: lengthMessage(conditions.length, found: count),
                    excerpt: body.isEmpty ? nil : textExcerpt(body, around: body.count - BodyExcerpt.radius, charset)))
            case .sha256(let digest):
                findings.append(Finding(
                    kind: .body, rule: "body.text.sha256", message: digestMessage(conditions.sha256 ?? "", found: digest, body),
                    excerpt: body.isEmpty ? nil : textExcerpt(body, around: BodyExcerpt.radius, charset)))
            }
        }
        return findings
    }

    func checkBinary(_ body: [UInt8], _ expectation: BinaryExpectation) -> [Finding] {
        let excerpt = body.isEmpty ? nil : hexHead(body)
        return expectation.mismatches(body).map { mismatch in
            switch mismatch {
            case .bytes:
                Finding(kind: .body, rule: "body.binary.bytes", message: differentBytes(body, expected: expectation.bytes ?? []), excerpt: excerpt)
            case .length(let count):
                Finding(kind: .body, rule: "body.binary.length", message: lengthMessage(expectation.length, found: count), excerpt: excerpt)
            case .sha256(let digest):
                Finding(kind: .body, rule: "body.binary.sha256", message: digestMessage(expectation.sha256 ?? "", found: digest, body), excerpt: excerpt)
            }
        }
    }

    // MARK: Text

    /// A byte the charset does not decode. UTF-8 keeps the finding it always had; the reason names
    /// the Content-Type when that declares UTF-8, else the contract.
    private func undecodable(_ body: [UInt8], at offset: Int, _ conditions: TextConditions, _ declared: BodyDeclaration) -> Finding {
        let charset = conditions.decodingCharset
        if charset == .utf8 {
            let contract = conditions.charset == nil ? "the contract matches the body as text" : "'charset' is 'utf-8'"
            return notUTF8(body, at: offset, because: declaredReason(declared) ?? contract)
        }
        return Finding(
            kind: .body, rule: "body.text.charset",
            message: "expected \(charset.displayName) text ('charset' is '\(charset.rawValue)'), found \(BodyEncoding.describeBytes(at: offset, in: body)), "
                + "which is not \(charset.displayName), at \(BodyEncoding.position(of: offset, in: body))",
            excerpt: BodyExcerpt.around(body, offset: offset, secrets: secrets))
    }

    /// Shown texts are clipped, so a difference past the first few dozen characters is also given
    /// by place, with the excerpt around it.
    private func notEqual(_ body: [UInt8], _ wanted: String, _ charset: TextCharset, _ text: String, _ bomNote: String) -> Finding {
        let message = "expected the body '\(clip(wanted))', found '\(clip(text))'\(bomNote)"
        let expected = charset.encode(wanted) ?? []
        let offset = zip(expected, body).prefix { $0 == $1 }.count
        guard charset.decode(Array(body.prefix(offset))).unicodeScalars.count >= 60 else { return Finding(kind: .body, rule: "body.text.equals", message: message) }
        let place = offset >= body.count
            ? "the body ends at \(position(of: offset, in: body, charset)), where the expected text goes on"
            : "the first difference is at \(position(of: offset, in: body, charset))"
        return Finding(kind: .body, rule: "body.text.equals", message: message + "; " + place, excerpt: textExcerpt(body, around: offset, charset))
    }

    /// The substrings not found, in the contract's order; for each found in another case (ASCII
    /// letters only), where, since that is the likely drift.
    private func missingSubstrings(_ body: [UInt8], _ missing: [String], of total: Int, _ charset: TextCharset, _ text: String, _ bomNote: String) -> Finding {
        var listed = missing.prefix(Self.maxListedSubstrings).map { "'\(clip($0))'" }
        if missing.count > Self.maxListedSubstrings { listed.append("\(missing.count - Self.maxListedSubstrings) more") }
        let list = listed.count == 1 ? listed[0] : listed.dropLast().joined(separator: ", ") + " and " + listed[listed.count - 1]
        let which = missing.count == 1 ? "which is missing" : "which are missing"
        let counted = "\(missing.count) of \(total) substring\(total == 1 ? "" : "s")"
        var hints: [String] = []
        var hintOffset: Int? = nil
        let foldedBody = body.map(Self.foldASCII)
        for wanted in missing.prefix(Self.maxListedSubstrings) {
            guard let needle = charset.encode(wanted), let offset = ByteSearch.firstOffset(of: needle.map(Self.foldASCII), in: foldedBody) else { continue }
            let found = charset.decode(Array(body[offset..<offset + needle.count]))
            hints.append("'\(clip(found, to: 40))' at \(position(of: offset, in: body, charset)) differs from '\(clip(wanted, to: 40))' only in case")
            hintOffset = hintOffset ?? offset
        }
        let hint = hints.isEmpty ? "" : "; " + hints.joined(separator: "; ")
        return Finding(
            kind: .body, rule: "body.text.contains", message: "expected the body to contain \(list), \(which) (\(counted)), found '\(clip(text))'\(bomNote)\(hint)",
            excerpt: body.isEmpty ? nil : textExcerpt(body, around: hintOffset ?? BodyExcerpt.radius, charset))
    }

    /// The excerpt of a text body around a byte `offset`, read in its charset: ISO-8859-1 beyond
    /// ASCII is shown as the characters it stands for, not as bytes that are not UTF-8.
    private func textExcerpt(_ body: [UInt8], around offset: Int, _ charset: TextCharset) -> String {
        guard charset == .isoLatin1, body.contains(where: { $0 >= 0x80 }) else { return BodyExcerpt.around(body, offset: offset, secrets: secrets) }
        let transcoded = Array(charset.decode(body).utf8)
        let shifted = offset + body.prefix(max(0, offset)).count { $0 >= 0x80 }
        return BodyExcerpt.around(transcoded, offset: shifted, secrets: secrets)
    }

    private static func foldASCII(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    /// `line 2, column 5 (byte 17)`: columns count characters of the body's charset.
    private func position(of offset: Int, in body: [UInt8], _ charset: TextCharset) -> String {
        guard charset != .utf8 else { return BodyEncoding.position(of: offset, in: body) }
        let before = body.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        return "line \(line), column \(offset - lineStart + 1) (byte \(offset))"
    }

    // MARK: Both

    /// `expected a body of exactly 1,024 bytes ('length'), found 1,000 bytes (24 fewer)`.
    func lengthMessage(_ length: ByteCount, found count: Int) -> String {
        let keys: String
        switch (length.minimum, length.maximum) {
        case (_?, _?) where length.exact != nil: keys = "'length'"
        case (_?, _?): keys = "'minLength' and 'maxLength'"
        case (_?, nil): keys = "'minLength'"
        default: keys = "'maxLength'"
        }
        let difference: String
        if let minimum = length.minimum, count < minimum {
            difference = "\(ByteCount.grouped(minimum - count)) fewer"
        } else if let maximum = length.maximum, count > maximum {
            difference = "\(ByteCount.grouped(count - maximum)) more"
        } else {
            difference = "within the bounds"  // not reached: only a failing count gets here
        }
        return "expected a body of \(length) (\(keys)), found \(ByteCount.bytes(count)) (\(difference))"
    }

    /// Both digests cut to where they are told apart. A body that holds a secret gets no digest in
    /// the report: a digest of a short secret can be checked against guesses.
    func digestMessage(_ expected: String, found digest: String, _ body: [UInt8]) -> String {
        let expectedShown = Self.shortDigest(expected, beside: digest)
        let holdsSecret = !secrets.isEmpty && !body.withUnsafeBufferPointer { secrets.occurrences(in: $0) }.isEmpty
        let found = holdsSecret ? "another, not shown because the body holds a secret" : Self.shortDigest(digest, beside: expected)
        return "expected a body whose SHA-256 is \(expectedShown), found \(found) (of \(ByteCount.bytes(body.count)))"
    }

    /// The first 12 hexadecimal digits, more when the other digest shares them.
    static func shortDigest(_ digest: String, beside other: String) -> String {
        let shared = zip(digest, other).prefix { $0 == $1 }.count
        let shown = max(12, shared + 4)
        return shown >= digest.count ? digest : String(digest.prefix(shown)) + Secrets.cutMark
    }

    // MARK: Binary

    /// Where the body parts from the bytes of `base64`, with the bytes on both sides of it.
    private func differentBytes(_ body: [UInt8], expected: [UInt8]) -> String {
        let wanted = "expected the \(ByteCount.bytes(expected.count)) of 'base64'"
        guard !body.isEmpty else { return "\(wanted), found an empty body" }
        let offset = zip(expected, body).prefix { $0 == $1 }.count
        if offset == body.count {
            return "\(wanted), found \(ByteCount.bytes(body.count)), the first \(ByteCount.grouped(body.count)) of them: "
                + "\(ByteCount.bytes(expected.count - body.count)) missing at the end"
        }
        if offset == expected.count {
            return "\(wanted), found \(ByteCount.bytes(body.count)), which begin with them and go on with "
                + "\(ByteCount.grouped(body.count - expected.count)) more: \(hex(body, from: offset, count: Self.hexDifferenceBytes))"
        }
        return "\(wanted), found \(ByteCount.bytes(body.count)) that differ from byte \(ByteCount.grouped(offset)): "
            + "expected \(Self.hex(expected, from: offset, count: Self.hexDifferenceBytes)), found \(hex(body, from: offset, count: Self.hexDifferenceBytes))"
    }

    /// `89 50 4E 47 0D 0A 1A 0A … (1,000 bytes)`: the first bytes of a body, as an excerpt.
    func hexHead(_ body: [UInt8]) -> String {
        hex(body, from: 0, count: Self.hexExcerptBytes) + " (\(ByteCount.bytes(body.count)))"
    }

    /// `count` bytes of the body from `start` in hexadecimal, `…` when more follow. Echoes of a
    /// secret are `***`, whole even where the window cuts them.
    func hex(_ body: [UInt8], from start: Int, count: Int) -> String {
        let end = min(body.count, start + count)
        guard start < end else { return "" }
        let echoes = secrets.echoes(overlapping: start..<end, in: body)
        var parts: [String] = []
        var index = start
        while index < end {
            if let echo = echoes.first(where: { $0.contains(index) }) {
                parts.append(Secrets.mask)
                index = echo.upperBound
            } else {
                parts.append(Self.hexByte(body[index]))
                index += 1
            }
        }
        return parts.joined(separator: " ") + (index < body.count ? " " + Secrets.cutMark : "")
    }

    /// The same for bytes from the contract, which hold no secret.
    static func hex(_ bytes: [UInt8], from start: Int, count: Int) -> String {
        let end = min(bytes.count, start + count)
        guard start < end else { return "" }
        return bytes[start..<end].map(hexByte).joined(separator: " ") + (end < bytes.count ? " " + Secrets.cutMark : "")
    }

    static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
