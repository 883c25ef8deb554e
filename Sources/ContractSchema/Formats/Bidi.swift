/// The Bidi rule of RFC 5893 for internationalised host names, with the bidirectional classes
/// of the scripts that matter (Hebrew, Arabic, Syriac, Thaana, NKo) from compact ranges: Swift
/// does not expose the Bidi_Class property.
enum Bidi {
    enum Class {
        case leftToRight, rightToLeft, arabicLetter, europeanNumber, arabicNumber, nonspacingMark, other
    }

    static func bidiClass(_ value: UInt32) -> Class {
        switch value {
        case 0x30...0x39, 0x6F0...0x6F9: return .europeanNumber
        case 0x660...0x669, 0x66B...0x66C: return .arabicNumber
        case 0x5BE, 0x5C0, 0x5C3, 0x5C6, 0x5D0...0x5EA, 0x5EF...0x5F4, 0x7C0...0x7EA, 0x7F4...0x7F5, 0x7FA, 0xFB1D, 0xFB1F...0xFB4F:
            return .rightToLeft
        case 0x608, 0x60B, 0x60D, 0x61B...0x64A, 0x66D...0x66F, 0x671...0x6D5, 0x6E5...0x6E6, 0x6EE...0x6EF, 0x6FA...0x70D,
            0x710, 0x712...0x72F, 0x74D...0x7A5, 0x7B1, 0xFB50...0xFDFF, 0xFE70...0xFEFC:
            return .arabicLetter
        default:
            guard let scalar = Unicode.Scalar(value) else { return .other }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: return .nonspacingMark
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .spacingMark: return .leftToRight
            default: return .other
            }
        }
    }

    /// A label with a right-to-left character (R, AL or AN) makes its domain a Bidi domain.
    static func isRightToLeft(_ label: [UInt32]) -> Bool {
        label.contains { [.rightToLeft, .arabicLetter, .arabicNumber].contains(bidiClass($0)) }
    }

    static func isValidLabel(_ label: [UInt32], inBidiDomain: Bool) -> Bool {
        guard inBidiDomain, let first = label.first else { return true }
        let classes = label.map(bidiClass)
        let last = classes.last { $0 != .nonspacingMark } ?? .other
        switch bidiClass(first) {
        case .rightToLeft, .arabicLetter:
            // Rules 2-4: no left-to-right characters, end on R, AL, EN or AN, and not both digit kinds.
            guard !classes.contains(.leftToRight) else { return false }
            guard [.rightToLeft, .arabicLetter, .europeanNumber, .arabicNumber].contains(last) else { return false }
            return !(classes.contains(.europeanNumber) && classes.contains(.arabicNumber))
        case .leftToRight:
            // Rules 5-6: no right-to-left characters, end on L or EN.
            guard !classes.contains(where: { [.rightToLeft, .arabicLetter, .arabicNumber].contains($0) }) else { return false }
            return last == .leftToRight || last == .europeanNumber
        default:
            return false  // rule 1: the first character is L, R or AL
        }
    }
}
