import ContractJSON

/// Reads typed values out of one parsed file and records a located diagnostic for every
/// problem, so a single pass reports all of them instead of stopping at the first.
struct DocumentDecoder {
    let file: String
    /// The document read; a ``CaseStream``'s decoder reads one whose parse is not done yet.
    var document: JSONDocument
    private(set) var diagnostics: [Diagnostic] = []
    /// Every placeholder string read so far that captures a variable, with where it is, for the
    /// capture checks of a case (the others have nothing to check).
    var templateUses: [(template: TemplateString, pointer: JSONPointer)] = []
    /// Texts with placeholders parsed so far, shared by every value that writes the same text:
    /// a large contract writes `Bearer ${env:TOKEN}` in every case, and each parse was an array
    /// of its own. At most ``maxParsedTemplates`` are kept; texts past them are parsed each time.
    /// By bytes: `é` written as one code point and as `e` and an accent are two texts to send.
    var parsedTemplates: [ByteKey: TemplateString] = [:]
    static let maxParsedTemplates = 1024
    /// Patterns already found to compile: a large contract repeats one in every case.
    var validPatterns: Set<String> = []
    /// The expectation of each single status read so far, shared by every case that says it.
    var singleStatuses: [StatusExpectation.Alternative: StatusExpectation] = [:]
    /// The last response headers decoded, shared by the cases that write the same ones.
    var recentHeaders = RecentDecodings<[HeaderExpectation]>(limit: 8)
    /// The last queries decoded, shared likewise: a case's query is often one of a few
    /// combinations (a page, a filter), and each was three arrays of its own.
    var recentQueries = RecentDecodings<[QueryItem]>(limit: 32)

    init(file: String, document: JSONDocument) {
        self.file = file
        self.document = document
    }

    var root: Field { Field(value: document.value, pointer: .root) }

    /// ` at line 3, column 5`, or nothing where the place is not known (a file whose places are
    /// made from it read again, changed since): a problem is reported either way.
    static func `where`(_ location: SourceLocation?) -> String {
        location.map { " at line \($0.line), column \($0.column)" } ?? ""
    }

    /// Records an error at a value, or at its key when `atKey` (for unknown or repeated keys).
    mutating func error(_ message: String, at pointer: JSONPointer, atKey: Bool = false) {
        let location = atKey ? document.keyLocation(of: pointer) : document.location(of: pointer)
        diagnostics.append(.error(message, file: file, location: location ?? document.nearestLocation(of: pointer), pointer: pointer))
    }

    mutating func warning(_ message: String, at pointer: JSONPointer, atKey: Bool = false) {
        let location = atKey ? document.keyLocation(of: pointer) : document.location(of: pointer)
        diagnostics.append(.warning(message, file: file, location: location ?? document.nearestLocation(of: pointer), pointer: pointer))
    }

    /// The members of an object with fixed keys: unknown keys and missing required keys are errors.
    mutating func object(_ field: Field, _ what: @autoclosure () -> String, allowed: [String], required: [String] = []) -> KnownFields? {
        guard let object = field.value.objectValue else {
            error("\(what()) must be an object, found \(describe(field.value))", at: field.pointer)
            return nil
        }
        var result = KnownFields(capacity: object.count)
        var suggested: Set<String> = []
        let pointer = field.pointer
        for member in object.members {
            let child = Field(value: member.value, in: pointer, at: member.key)
            if allowed.contains(member.key) {
                result.append(member.key, child)
            } else {
                let match = suggestion(for: member.key, among: allowed.filter { object[$0] == nil })
                if let match { suggested.insert(match) }
                error("unknown key '\(member.key)' in \(what())\(match.map { ", did you mean '\($0)'?" } ?? "")", at: child.pointer, atKey: true)
            }
        }
        // A misspelt required key is one problem, reported at the misspelling above.
        for key in required where object[key] == nil && !suggested.contains(key) {
            error("\(what()) is missing the required key '\(key)'", at: field.pointer)
        }
        return result
    }

    mutating func string(_ field: Field?, _ name: String) -> String? {
        guard let field else { return nil }
        guard let string = field.value.stringValue else {
            error("'\(name)' must be a string, found \(describe(field.value))", at: field.pointer)
            return nil
        }
        return string
    }

    mutating func bool(_ field: Field?, _ name: String) -> Bool? {
        guard let field else { return nil }
        guard let bool = field.value.boolValue else {
            error("'\(name)' must be true or false, found \(describe(field.value))", at: field.pointer)
            return nil
        }
        return bool
    }

    /// An identifier such as a contract id or a case name: `[A-Za-z0-9][A-Za-z0-9._-]*`.
    mutating func identifier(_ field: Field?, _ name: String) -> String? {
        guard let field, let text = string(field, name) else { return nil }
        guard Self.isIdentifier(text) else {
            error(
                "'\(name)' must start with a letter or digit and hold only letters, digits, '.', '_' and '-', found \(describe(field.value))",
                at: field.pointer)
            return nil
        }
        return text
    }

    /// An identifier that becomes part of a fixture's path (a contract id, a case name), so it
    /// must be one on every platform. A name that is not is reported but kept: it is well formed,
    /// and the rest of the contract is still checked.
    mutating func pathIdentifier(_ field: Field?, _ name: String, as kind: FixturePathName.Kind) -> String? {
        guard let field, let text = identifier(field, name) else { return nil }
        if let problem = FixturePathName.problem(with: text, as: kind) {
            error(problem.message(for: name, as: kind, found: describe(field.value)), at: field.pointer)
        }
        return text
    }

    static func isIdentifier(_ text: String) -> Bool {
        // ASCII only, so bytes: asking for Unicode properties was most of decoding a small case.
        guard let first = text.utf8.first, isLetterOrDigit(first) else { return false }
        return text.utf8.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// `A-Z`, `a-z` or `0-9`.
    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: false
        }
    }

    /// An array of unique strings (tags).
    mutating func stringList(_ field: Field?, _ name: String) -> [String] {
        guard let field else { return [] }
        guard field.value.arrayValue != nil else {
            error("'\(name)' must be an array of strings, found \(describe(field.value))", at: field.pointer)
            return []
        }
        var result: [String] = []
        for element in field.elements {
            guard let text = element.value.stringValue else {
                error("'\(name)' must hold only strings, found \(describe(element.value))", at: element.pointer)
                continue
            }
            if result.contains(text) {
                error("'\(name)' repeats \(describe(element.value))", at: element.pointer)
            } else {
                result.append(text)
            }
        }
        return result
    }

    /// A string with placeholders, checked for syntax.
    mutating func template(_ field: Field, _ name: String) -> TemplateString? {
        guard let text = string(field, name) else { return nil }
        return template(text, at: field.pointer)
    }

    mutating func template(_ text: String, at pointer: JSONPointer) -> TemplateString? {
        // Without a `$` the text is all literal (what parsing gives, found sooner, and sharing
        // the document's string): most header and query values.
        if !text.utf8.contains(UInt8(ascii: "$")) { return TemplateString(literal: text) }
        do {
            let template: TemplateString
            if let parsed = parsedTemplates[ByteKey(text)] {
                template = parsed
            } else {
                template = try TemplateString(parsing: text)
                if parsedTemplates.count < Self.maxParsedTemplates { parsedTemplates[ByteKey(text)] = template }
            }
            if !template.capturedVariables.isEmpty { templateUses.append((template, pointer)) }
            return template
        } catch {
            self.error(error.message, at: pointer)
            return nil
        }
    }

    /// A scalar request value (path parameter, query value) as text with placeholders.
    mutating func scalarTemplate(_ field: Field, _ name: String) -> TemplateString? {
        switch field.value {
        case .string(let text): return template(text, at: field.pointer)
        case .number(let number): return TemplateString(literal: number.description)
        case .bool(let bool): return TemplateString(literal: bool ? "true" : "false")
        default:
            error("\(name) must be a string, a number or a boolean, found \(describe(field.value))", at: field.pointer)
            return nil
        }
    }
}
