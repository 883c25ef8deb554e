import ContractJSON
import ContractSchema

/// A request body as lint can know it before it is sent. A `${unique:…}` is always 12 lowercase
/// letters and digits, so it stands as one such value and is checked (length, pattern, enum).
/// A string that is one `${capture:…}` may be any JSON value, so nothing about it is known; one
/// that holds an `${env:…}` or a capture among other text is text, so only its type is known.
struct SentValue {
    enum Unknown {
        case anyValue
        case text
    }

    /// The body with each unique value's stand-in.
    private(set) var value: JSONValue
    private var unknown: [JSONPointer: Unknown] = [:]

    init(_ body: JSONValue) {
        value = body
        value = read(body, at: .root)
    }

    /// Whether `error` is about what the body's placeholders leave unknown: any error at a value
    /// known to be anything, any but a type error at text of unknown content, or a choice among
    /// branches (`oneOf`, `anyOf`, `not`, `if`, `contains`) over a value that holds either.
    func hides(_ error: ValidationError) -> Bool {
        guard !unknown.isEmpty else { return false }
        switch unknown[error.instanceLocation] {
        case .anyValue?: return true
        case .text?: return error.keyword != "type"
        case nil: break
        }
        guard ["oneOf", "anyOf", "not", "if", "then", "else", "contains"].contains(error.keyword) else { return false }
        let inside = error.instanceLocation.tokens
        return unknown.keys.contains { Array($0.tokens.prefix(inside.count)) == inside }
    }

    private mutating func read(_ node: JSONValue, at pointer: JSONPointer) -> JSONValue {
        switch node {
        case .string(let text):
            guard text.contains("${"), let template = try? TemplateString(parsing: text) else { return node }
            if template.singleCapture != nil {
                unknown[pointer] = .anyValue
                return node
            }
            let segments = template.segments
            let known = segments.allSatisfy { segment in
                switch segment {
                case .literal, .unique: true
                case .env, .capture: false
                }
            }
            guard known else {
                unknown[pointer] = .text
                return node
            }
            return .string(segments.map { segment -> String in
                switch segment {
                case .literal(let literal): literal
                case .unique(let name): UniqueValues.stable.value(for: name)
                case .env, .capture: ""
                }
            }.joined())
        case .array(let elements):
            return .array(elements.enumerated().map { read($0.element, at: pointer.appending(String($0.offset))) })
        case .object(let object):
            return .object(JSONObject(object.members.map { JSONObject.Member(key: $0.key, value: read($0.value, at: pointer.appending($0.key))) }))
        default:
            return node
        }
    }
}
