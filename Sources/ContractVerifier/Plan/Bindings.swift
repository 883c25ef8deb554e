import ContractJSON
import ContractModel

/// The values placeholders stand for while a case runs: the environment's (secrets) and the
/// values captured by the case's setup steps, and the case's own `${unique:…}` values.
struct Bindings: Sendable {
    var environment: [String: String]
    var captures: [String: JSONValue] = [:]
    /// The case's own `${unique:…}` values (``UniqueValues/forCase(_:)`` of the run's, which the
    /// case runner gives); the stable ones where no case runs (a check of a response alone).
    var unique = UniqueValues.stable

    /// The text to send. A missing capture renders empty; the step that should have captured it
    /// has already failed the case.
    func render(_ template: TemplateString) -> String {
        render(template, redacted: false)
    }

    /// The text to show: every `${env:…}` value replaced by `***`.
    func display(_ template: TemplateString) -> String {
        render(template, redacted: true)
    }

    private func render(_ template: TemplateString, redacted: Bool) -> String {
        // Most values are plain text: the literal itself, not a copy built up from empty.
        if template.segments.count == 1, case .literal(let literal) = template.segments[0] { return literal }
        var text = ""
        for segment in template.segments {
            switch segment {
            case .literal(let literal): text += literal
            case .env(let name): text += redacted ? Secrets.mask : environment[name] ?? ""
            case .capture(let name): text += captures[name].map(Self.text) ?? ""
            case .unique(let name): text += unique.value(for: name)
            }
        }
        return text
    }

    /// A JSON body with placeholders in its strings filled in. A string that is nothing but one
    /// `${capture:…}` takes the captured value with its type, so a captured number stays a number.
    func render(_ body: JSONValue, redacted: Bool) -> JSONValue {
        switch body {
        case .string(let string):
            guard string.contains("${"), let template = try? TemplateString(parsing: string) else { return body }
            if template.segments.count == 1, case .capture(let name) = template.segments[0], let value = captures[name] {
                return value
            }
            return .string(render(template, redacted: redacted))
        case .array(let elements):
            return .array(elements.map { render($0, redacted: redacted) })
        case .object(let object):
            return .object(JSONObject(object.members.map { JSONObject.Member(key: $0.key, value: render($0.value, redacted: redacted)) }))
        default:
            return body
        }
    }

    /// A captured value as text in a path, query or header: strings as they are, others as JSON.
    static func text(_ value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return CanonicalJSONWriter(style: .compact).string(value)
    }
}
