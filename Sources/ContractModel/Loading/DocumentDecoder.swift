import ContractJSON

/// Reads typed values out of one parsed file and records a located diagnostic for every
/// problem, so a single pass reports all of them instead of stopping at the first.
struct DocumentDecoder {
    let file: String
    let document: JSONDocument
    private(set) var diagnostics: [Diagnostic] = []
    /// Every placeholder string read so far, with where it is, for the capture checks of a case.
    var templateUses: [(template: TemplateString, pointer: JSONPointer)] = []
    /// Patterns already found to compile: a large contract repeats one in every case.
    var validPatterns: Set<String> = []

    init(file: String, document: JSONDocument) {
        self.file = file
        self.document = document
    }

    var root: Field { Field(value: document.value, pointer: .root) }

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
    mutating func object(_ field: Field, _ what: String, allowed: [String], required: [String] = []) -> [String: Field]? {
        guard let object = field.value.objectValue else {
            error("\(what) must be an object, found \(describe(field.value))", at: field.pointer)
            return nil
        }
        var result: [String: Field] = [:]
        var suggested: Set<String> = []
        for (key, member) in field.members {
            if allowed.contains(key) {
                result[key] = member
            } else {
                let match = suggestion(for: key, among: allowed.filter { object[$0] == nil })
                if let match { suggested.insert(match) }
                error("unknown key '\(key)' in \(what)\(match.map { ", did you mean '\($0)'?" } ?? "")", at: member.pointer, atKey: true)
            }
        }
        // A misspelt required key is one problem, reported at the misspelling above.
        for key in required where object[key] == nil && !suggested.contains(key) {
            error("\(what) is missing the required key '\(key)'", at: field.pointer)
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
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first) else {
            return false
        }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "_" || $0 == "-")
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
        do {
            let template = try TemplateString(parsing: text)
            templateUses.append((template, pointer))
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
