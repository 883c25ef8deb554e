/// Host names: RFC 1123 for `hostname` (with RFC 5891 A-label checks), IDNA2008 (RFC 5890-5893)
/// for `idn-hostname`, as far as Swift's Unicode properties allow: general categories, combining
/// classes and case folding are exact; scripts and joining types use small tables below.
enum HostnameFormats {
    static func isHostname(_ value: String) -> Bool {
        if let result = value.utf8.withContiguousStorageIfAvailable(isHostname) { return result }
        return Array(value.utf8).withUnsafeBufferPointer(isHostname)
    }

    static func isHostname(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ".") {
            guard isASCIILabel(UnsafeBufferPointer(rebasing: bytes[start..<index])) else { return false }
            start = index + 1
        }
        return true
    }

    /// Letters, digits and hyphens, 1-63 long, no hyphen at either end, `--` in positions 3-4 only
    /// for an `xn--` label that decodes to a valid U-label.
    private static func isASCIILabel(_ label: [UInt8]) -> Bool {
        label.withUnsafeBufferPointer(isASCIILabel)
    }

    private static func isASCIILabel(_ label: UnsafeBufferPointer<UInt8>) -> Bool {
        guard (1...63).contains(label.count), label.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }),
            label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-")
        else { return false }
        if label.count >= 4, label[2] == UInt8(ascii: "-"), label[3] == UInt8(ascii: "-") {
            let encoded = Array(label[4...]).map { $0 | 0x20 }
            guard label[0] | 0x20 == UInt8(ascii: "x"), label[1] | 0x20 == UInt8(ascii: "n"),
                let decoded = Punycode.decode(encoded), !decoded.isEmpty, decoded.contains(where: { $0 >= 0x80 }),
                Punycode.encode(decoded) == encoded  // canonical: it re-encodes to itself
            else { return false }
            return isUnicodeLabel(decoded, fromALabel: true) && Bidi.isValidLabel(decoded, inBidiDomain: Bidi.isRightToLeft(decoded))
        }
        return true
    }

    static func isInternationalHostname(_ value: String) -> Bool {
        let scalars = value.unicodeScalars.map(\.value)
        guard !scalars.isEmpty else { return false }
        // IDNA recognises the ideographic and fullwidth full stops as label separators.
        let separators: Set<UInt32> = [0x2E, 0x3002, 0xFF0E, 0xFF61]
        let labels = scalars.split(omittingEmptySubsequences: false) { separators.contains($0) }.map(Array.init)
        var total = labels.count - 1
        var unicodeLabels: [[UInt32]] = []
        for label in labels {
            if label.allSatisfy({ $0 < 0x80 }) {
                let bytes = label.map { UInt8($0) }
                guard isASCIILabel(bytes) else { return false }
                total += label.count
                if bytes.count > 4, bytes[0] | 0x20 == UInt8(ascii: "x"), bytes[1] | 0x20 == UInt8(ascii: "n"), bytes[2] == 0x2D, bytes[3] == 0x2D,
                    let decoded = Punycode.decode(Array(bytes[4...]).map { $0 | 0x20 })
                {
                    unicodeLabels.append(decoded)
                } else {
                    unicodeLabels.append(label)
                }
            } else {
                // The A-label (xn--…) is what must fit in 63 octets.
                guard isUnicodeLabel(label, fromALabel: false), let encoded = Punycode.encode(label), encoded.count + 4 <= 63 else { return false }
                total += 4 + encoded.count
                unicodeLabels.append(label)
            }
        }
        // RFC 5893: once any label is right-to-left, every label obeys the Bidi rule.
        let bidiDomain = unicodeLabels.contains(where: Bidi.isRightToLeft)
        if bidiDomain, !unicodeLabels.allSatisfy({ Bidi.isValidLabel($0, inBidiDomain: true) }) { return false }
        return total <= 253
    }

    /// The IDNA2008 rules for a U-label.
    static func isUnicodeLabel(_ label: [UInt32], fromALabel: Bool) -> Bool {
        guard !label.isEmpty, label.count <= 63, label.first != 0x2D, label.last != 0x2D else { return false }
        if label.count >= 4, label[2] == 0x2D, label[3] == 0x2D { return false }
        let scalars = label.compactMap(Unicode.Scalar.init)
        guard scalars.count == label.count else { return false }
        if let first = scalars.first, [.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory) {
            return false
        }
        for (index, scalar) in scalars.enumerated() {
            guard isPermitted(scalar, at: index, in: scalars) else { return false }
        }
        // Arabic-Indic digits and extended Arabic-Indic digits do not mix (RFC 5892 A.8, A.9).
        let arabicIndic = label.contains { (0x660...0x669).contains($0) }
        let extended = label.contains { (0x6F0...0x6F9).contains($0) }
        return !(arabicIndic && extended)
    }

    private static func isPermitted(_ scalar: Unicode.Scalar, at index: Int, in label: [Unicode.Scalar]) -> Bool {
        let value = scalar.value
        switch value {
        case 0x2D, 0x30...0x39, 0x61...0x7A: return true
        case 0x200C:  // ZERO WIDTH NON-JOINER: after a virama, or between joining letters (RFC 5892 A.1)
            return index > 0 && (isVirama(label[index - 1]) || joinsAround(index, in: label))
        case 0x200D:  // ZERO WIDTH JOINER: after a virama (A.2)
            return index > 0 && isVirama(label[index - 1])
        case 0xB7:  // MIDDLE DOT between two 'l' (A.3)
            return index > 0 && index < label.count - 1 && label[index - 1] == "l" && label[index + 1] == "l"
        case 0x375:  // GREEK LOWER NUMERAL SIGN before a Greek letter (A.4)
            return index < label.count - 1 && isGreek(label[index + 1].value)
        case 0x5F3, 0x5F4:  // HEBREW GERESH and GERSHAYIM after a Hebrew letter (A.5, A.6)
            return index > 0 && isHebrew(label[index - 1].value)
        case 0x30FB:  // KATAKANA MIDDLE DOT with Hiragana, Katakana or Han in the label (A.7)
            return label.contains { $0.value != 0x30FB && isJapanese($0.value) }
        case 0xDF, 0x3C2, 0x6FD, 0x6FE, 0xF0B, 0x3007:
            return true  // PVALID exceptions of RFC 5892 section 2.6
        case 0x640, 0x7FA, 0x302E, 0x302F, 0x3031...0x3035, 0x303B:
            return false  // DISALLOWED in RFC 5892 appendix B despite being letters or marks
        default:
            break
        }
        let properties = scalar.properties
        if properties.changesWhenNFKCCaseFolded { return false }
        switch properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber: return true
        default: return false
        }
    }

    private static func isVirama(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.canonicalCombiningClass.rawValue == 9
    }

    /// A rough joining-type check: Arabic-script letters on both sides of the non-joiner.
    private static func joinsAround(_ index: Int, in label: [Unicode.Scalar]) -> Bool {
        let before = label[..<index].last { !isTransparent($0) }
        let after = label[(index + 1)...].first { !isTransparent($0) }
        guard let before, let after else { return false }
        return isJoiningLetter(before.value) && isJoiningLetter(after.value)
    }

    private static func isTransparent(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .nonspacingMark
    }

    private static func isJoiningLetter(_ value: UInt32) -> Bool {
        (0x620...0x64A).contains(value) || (0x66E...0x6D3).contains(value) || (0x710...0x74F).contains(value)
            || (0xA840...0xA872).contains(value)
    }

    private static func isGreek(_ value: UInt32) -> Bool {
        (0x370...0x3FF).contains(value) && value != 0x375 || (0x1F00...0x1FFF).contains(value)
    }

    private static func isHebrew(_ value: UInt32) -> Bool {
        (0x591...0x5F4).contains(value) || (0xFB1D...0xFB4F).contains(value)
    }

    private static func isJapanese(_ value: UInt32) -> Bool {
        (0x3040...0x309F).contains(value) || (0x30A0...0x30FF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0x3400...0x4DBF).contains(value) || (0x31F0...0x31FF).contains(value)
    }
}
