/// A string that may hold `${env:NAME}`, `${capture:NAME}` and `${unique:NAME}` placeholders; `$${`
/// is a literal `${`.
public struct TemplateString: Sendable, Hashable, CustomStringConvertible {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        /// A secret read from the environment at run time; never shown in any output.
        case env(String)
        /// A value captured by an earlier setup step of the same case.
        case capture(String)
        /// A value made fresh for each run of a case, the same for every use of one name within
        /// it: what must not collide with another case's or an earlier run's (``UniqueValue``).
        case unique(String)
    }

    /// A text without placeholders (most header, query and path values) is kept as its string:
    /// an array of one segment was an allocation of its own for each of them, some 64 bytes for
    /// every value of every case of a large contract. A text without placeholders has one form
    /// however it was made (``storage(_:)``), so equality and hashing need not look through them.
    private enum Storage: Sendable, Hashable {
        case literal(String)
        case segments([Segment])
    }

    private var storage: Storage

    /// The template's pieces in order; none for an empty text. A literal text is one `.literal`
    /// segment, made for the caller: code that runs for every request reads ``literalText`` first.
    public var segments: [Segment] {
        get {
            switch storage {
            case .literal(let text): text.isEmpty ? [] : [.literal(text)]
            case .segments(let segments): segments
            }
        }
        set { storage = Self.storage(newValue) }
    }

    /// The segments of a template that has placeholders; none for a literal text, without
    /// making the array ``segments`` makes for one (these are asked for every request sent).
    private var withPlaceholders: [Segment] {
        if case .segments(let segments) = storage { return segments }
        return []
    }

    /// The name when the template is nothing but one `${capture:…}` (a followed link, a value
    /// that keeps the captured type), else nil; without making ``segments``.
    public var singleCapture: String? {
        if case .segments(let segments) = storage, segments.count == 1, case .capture(let name) = segments[0] { return name }
        return nil
    }

    /// The text when it has no placeholder (`$${` already read as `${`), else nil.
    public var literalText: String? {
        if case .literal(let text) = storage { return text }
        return nil
    }

    public init(segments: [Segment]) {
        storage = Self.storage(segments)
    }

    public init(literal: String) {
        storage = .literal(literal)
    }

    /// The one form of `segments`: literal text, joined, when there is no placeholder.
    private static func storage(_ segments: [Segment]) -> Storage {
        var text = ""
        for segment in segments {
            guard case .literal(let literal) = segment else { return .segments(segments) }
            text += literal
        }
        return .literal(text)
    }

    public static let placeholderKinds = ["env", "capture", "unique"]

    /// Parses the placeholders of `text`; the error says what is wrong with the first bad one.
    public init(parsing text: String) throws(TemplateSyntaxError) {
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let afterDollar = rest[dollar...].dropFirst()
            if afterDollar.hasPrefix("${") {
                literal += "${"
                rest = afterDollar.dropFirst(2)
                continue
            }
            guard afterDollar.hasPrefix("{") else {
                literal += "$"
                rest = afterDollar
                continue
            }
            guard let close = afterDollar.firstIndex(of: "}") else {
                throw TemplateSyntaxError(
                    message: "unterminated placeholder '\(rest[dollar...].prefix(30))', expected '}' (write '$${' for a literal '${')")
            }
            let body = afterDollar[afterDollar.index(after: afterDollar.startIndex)..<close]
            let placeholder = "${\(body)}"
            guard let colon = body.firstIndex(of: ":") else {
                throw TemplateSyntaxError(
                    message: "placeholder '\(placeholder)' needs a kind, expected '${env:NAME}', '${capture:NAME}' or '${unique:NAME}'")
            }
            let kind = String(body[..<colon])
            let name = String(body[body.index(after: colon)...])
            guard Self.isVariableName(name) else {
                throw TemplateSyntaxError(
                    message: "placeholder '\(placeholder)' has an invalid name '\(name)', expected letters, digits and '_', not starting with a digit")
            }
            if !literal.isEmpty {
                segments.append(.literal(literal))
                literal = ""
            }
            switch kind {
            case "env": segments.append(.env(name))
            case "capture": segments.append(.capture(name))
            case "unique": segments.append(.unique(name))
            default:
                throw TemplateSyntaxError(
                    message: "placeholder '\(placeholder)' has an unknown kind '\(kind)', expected 'env', 'capture' or 'unique'"
                        + didYouMean(kind, among: Self.placeholderKinds))
            }
            rest = afterDollar[afterDollar.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.init(segments: segments)
    }

    /// Names of variables and path placeholders: letters, digits and `_`, not starting with a digit.
    public static func isVariableName(_ name: some StringProtocol) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    public var environmentVariables: [String] {
        withPlaceholders.compactMap { if case .env(let name) = $0 { name } else { nil } }
    }

    /// Whether an `${env:…}` placeholder appears: the value is then a secret where it is shown.
    public var mentionsEnvironment: Bool {
        withPlaceholders.contains { if case .env = $0 { true } else { false } }
    }

    public var capturedVariables: [String] {
        withPlaceholders.compactMap { if case .capture(let name) = $0 { name } else { nil } }
    }

    public var uniqueNames: [String] {
        withPlaceholders.compactMap { if case .unique(let name) = $0 { name } else { nil } }
    }

    /// The text as written, with `$${` for literal `${`.
    public var description: String {
        if let literal = literalText { return literal.contains("${") ? literal.replacing("${", with: "$${") : literal }
        return withPlaceholders.map {
            switch $0 {
            case .literal(let text): text.replacing("${", with: "$${")
            case .env(let name): "${env:\(name)}"
            case .capture(let name): "${capture:\(name)}"
            case .unique(let name): "${unique:\(name)}"
            }
        }.joined()
    }
}

public struct TemplateSyntaxError: Error, Sendable, Hashable {
    public var message: String

    public init(message: String) {
        self.message = message
    }
}
