/// A Unicode property usable in `\p{…}`: a General_Category group or a binary property that
/// Swift's `Unicode.Scalar.Properties` can answer.
enum UnicodePropertyClass: Sendable, Hashable {
    case generalCategories(Set<Unicode.GeneralCategory>)
    case binary(BinaryProperty)

    enum BinaryProperty: Sendable, Hashable {
        case any, ascii, assigned, alphabetic, whiteSpace, uppercase, lowercase, emoji, emojiPresentation, hexDigit,
            asciiHexDigit, math, dash, ideographic, noncharacterCodePoint
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .generalCategories(let categories):
            return categories.contains(scalar.properties.generalCategory)
        case .binary(let property):
            let properties = scalar.properties
            switch property {
            case .any: return true
            case .ascii: return scalar.isASCII
            case .assigned: return properties.generalCategory != .unassigned
            case .alphabetic: return properties.isAlphabetic
            case .whiteSpace: return properties.isWhitespace
            case .uppercase: return properties.isUppercase
            case .lowercase: return properties.isLowercase
            case .emoji: return properties.isEmoji
            case .emojiPresentation: return properties.isEmojiPresentation
            case .hexDigit: return properties.isHexDigit
            case .asciiHexDigit: return properties.isASCIIHexDigit
            case .math: return properties.isMath
            case .dash: return properties.isDash
            case .ideographic: return properties.isIdeographic
            case .noncharacterCodePoint: return properties.isNoncharacterCodePoint
            }
        }
    }

    /// The property a `\p{…}` body names: `L`, `Letter`, `gc=Lu`, `General_Category=Letter`,
    /// `Alphabetic`… Names are matched loosely (case, `_`, `-` and spaces ignored), as
    /// Unicode's matching rule UAX44-LM3 allows.
    init?(name: String) {
        var text = name
        if let equals = text.firstIndex(of: "=") {
            let key = Self.loose(String(text[..<equals]))
            guard key == "gc" || key == "generalcategory" else { return nil }
            text = String(text[text.index(after: equals)...])
        }
        let key = Self.loose(text)
        if let categories = Self.categoryGroups[key] {
            self = .generalCategories(categories)
        } else if let property = Self.binaryProperties[key] {
            self = .binary(property)
        } else {
            return nil
        }
    }

    private static func loose(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    private static let binaryProperties: [String: BinaryProperty] = [
        "any": .any, "ascii": .ascii, "assigned": .assigned, "alphabetic": .alphabetic, "alpha": .alphabetic,
        "whitespace": .whiteSpace, "space": .whiteSpace, "wspace": .whiteSpace, "uppercase": .uppercase, "upper": .uppercase,
        "lowercase": .lowercase, "lower": .lowercase, "emoji": .emoji, "emojipresentation": .emojiPresentation, "epres": .emojiPresentation,
        "hexdigit": .hexDigit, "hex": .hexDigit, "asciihexdigit": .asciiHexDigit, "ahex": .asciiHexDigit, "math": .math,
        "dash": .dash, "ideographic": .ideographic, "ideo": .ideographic, "noncharactercodepoint": .noncharacterCodePoint,
    ]

    private static let categoryGroups: [String: Set<Unicode.GeneralCategory>] = {
        let letters: Set<Unicode.GeneralCategory> = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        let marks: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]
        let numbers: Set<Unicode.GeneralCategory> = [.decimalNumber, .letterNumber, .otherNumber]
        let punctuation: Set<Unicode.GeneralCategory> = [
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
            .otherPunctuation,
        ]
        let symbols: Set<Unicode.GeneralCategory> = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
        let separators: Set<Unicode.GeneralCategory> = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
        let others: Set<Unicode.GeneralCategory> = [.control, .format, .surrogate, .privateUse, .unassigned]
        var groups: [String: Set<Unicode.GeneralCategory>] = [
            "l": letters, "letter": letters, "lc": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter],
            "casedletter": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter],
            "m": marks, "mark": marks, "combiningmark": marks, "n": numbers, "number": numbers, "p": punctuation,
            "punctuation": punctuation, "punct": punctuation, "s": symbols, "symbol": symbols, "z": separators, "separator": separators,
            "c": others, "other": others,
        ]
        let singles: [(String, String, Unicode.GeneralCategory)] = [
            ("lu", "uppercaseletter", .uppercaseLetter), ("ll", "lowercaseletter", .lowercaseLetter),
            ("lt", "titlecaseletter", .titlecaseLetter), ("lm", "modifierletter", .modifierLetter), ("lo", "otherletter", .otherLetter),
            ("mn", "nonspacingmark", .nonspacingMark), ("mc", "spacingmark", .spacingMark), ("me", "enclosingmark", .enclosingMark),
            ("nd", "decimalnumber", .decimalNumber), ("nl", "letternumber", .letterNumber), ("no", "othernumber", .otherNumber),
            ("pc", "connectorpunctuation", .connectorPunctuation), ("pd", "dashpunctuation", .dashPunctuation),
            ("ps", "openpunctuation", .openPunctuation), ("pe", "closepunctuation", .closePunctuation),
            ("pi", "initialpunctuation", .initialPunctuation), ("pf", "finalpunctuation", .finalPunctuation),
            ("po", "otherpunctuation", .otherPunctuation), ("sm", "mathsymbol", .mathSymbol), ("sc", "currencysymbol", .currencySymbol),
            ("sk", "modifiersymbol", .modifierSymbol), ("so", "othersymbol", .otherSymbol), ("zs", "spaceseparator", .spaceSeparator),
            ("zl", "lineseparator", .lineSeparator), ("zp", "paragraphseparator", .paragraphSeparator), ("cc", "control", .control),
            ("cf", "format", .format), ("cs", "surrogate", .surrogate), ("co", "privateuse", .privateUse), ("cn", "unassigned", .unassigned),
        ]
        for (short, long, category) in singles {
            groups[short] = [category]
            groups[long] = [category]
        }
        // "digit" is not an ECMA-262 name, but the official test suite expects it to mean Nd.
        groups["digit"] = [.decimalNumber]
        groups["cntrl"] = [.control]
        return groups
    }()
}
