import ContractJSON

/// What the response of a case must look like.
public struct ResponseExpectation: Sendable, Hashable {
    public var status: StatusExpectation
    public var headers: [HeaderExpectation]
    public var body: BodyExpectation

    public init(status: StatusExpectation, headers: [HeaderExpectation] = [], body: BodyExpectation = .unchecked) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Accepted status codes: exact codes and classes such as `2XX`.
public struct StatusExpectation: Sendable, Hashable, CustomStringConvertible {
    public enum Alternative: Sendable, Hashable {
        case code(Int)
        /// The first digit of the class: 2 for `2XX`.
        case `class`(Int)
    }

    public var alternatives: [Alternative]

    public init(_ alternatives: [Alternative]) {
        self.alternatives = alternatives
    }

    public static let success = StatusExpectation([.class(2)])

    public func accepts(_ status: Int) -> Bool {
        alternatives.contains {
            switch $0 {
            case .code(let code): code == status
            case .class(let digit): status / 100 == digit
            }
        }
    }

    /// `200`, `2XX`, or `200, 201 or 2XX`.
    public var description: String {
        let parts = alternatives.map {
            switch $0 {
            case .code(let code): String(code)
            case .class(let digit): "\(digit)XX"
            }
        }
        guard parts.count > 1, let last = parts.last else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// A response header check; names are compared case-insensitively.
public struct HeaderExpectation: Sendable, Hashable {
    public enum Matcher: Sendable, Hashable {
        case equals(TemplateString)
        /// An ECMA-262 regular expression, searched for anywhere in the value unless anchored.
        case pattern(String)
        case present
        case absent
    }

    public var name: String
    public var matcher: Matcher

    public init(name: String, matcher: Matcher) {
        self.name = name
        self.matcher = matcher
    }
}

/// The body a response must have.
public enum BodyExpectation: Sendable, Hashable {
    /// No expectation about the body.
    case unchecked
    /// JSON valid against the schema; the example, when given, is a valid body.
    case json(schema: SchemaReference, example: JSONValue?)
    case text(TextMatcher)
    case empty
}

public enum TextMatcher: Sendable, Hashable {
    case equals(String)
    case pattern(String)
}

/// A JSON Schema as written in a contract, with where it was written, so references resolve
/// from the right file and errors point into it.
public struct SchemaReference: Sendable, Hashable {
    public var schema: JSONValue
    public var file: String
    public var pointer: JSONPointer

    public init(schema: JSONValue, file: String, pointer: JSONPointer) {
        self.schema = schema
        self.file = file
        self.pointer = pointer
    }
}
