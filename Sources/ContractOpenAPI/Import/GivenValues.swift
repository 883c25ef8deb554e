import ContractJSON
import ContractModel


/// Values given for request parameters by name (`--value NAME=VALUE`), sent instead of any the
/// document gives. A string may hold `${env:NAME}`: a secret or a per-environment value that the
/// environment gives when `contract verify` runs, which the contracts keep as that placeholder;
/// any other text is sent as written.
public enum GivenValues {
    /// `NAME=VALUE`s as typed: VALUE as JSON when it parses (`42`, `true`, `"x"`), else as text.
    public static func parse(_ arguments: [String]) throws(DiagnosticsError) -> [String: JSONValue] {
        var given: [String: JSONValue] = [:]
        for text in arguments {
            guard let equals = text.firstIndex(of: "="), equals > text.startIndex else {
                throw DiagnosticsError(argument: "--value must be 'NAME=VALUE', found '\(text)'")
            }
            let name = String(text[..<equals])
            let raw = String(text[text.index(after: equals)...])
            let value = (try? JSONParser().parse(Array(raw.utf8)).value) ?? .string(raw)
            try checkPlaceholders(in: value, name: name)
            given[name] = value
        }
        return given
    }

    /// A given value as the contracts write it: a string with `${env:…}` as the template it is,
    /// any other text literally (a `${` in it escaped, so it is sent as written).
    static func written(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let string): template(string) != nil ? value : .string(string.replacingOccurrences(of: "${", with: "$${"))
        case .array(let elements): .array(elements.map(written))
        case .object(let object): .object(JSONObject(object.members.map { JSONObject.Member(key: $0.key, value: written($0.value)) }))
        default: value
        }
    }

    /// The environment variables a given value reads, in order.
    static func environmentVariables(in value: JSONValue) -> [String] {
        switch value {
        case .string(let string): template(string)?.environmentVariables ?? []
        case .array(let elements): elements.flatMap(environmentVariables)
        case .object(let object): object.members.flatMap { environmentVariables(in: $0.value) }
        default: []
        }
    }

    /// The string as a template when it reads the environment and nothing else a contract could
    /// not give it (a capture exists only in a case's setup steps).
    private static func template(_ string: String) -> TemplateString? {
        guard string.contains("${env:"), let template = try? TemplateString(parsing: string) else { return nil }
        return template.capturedVariables.isEmpty && !template.environmentVariables.isEmpty ? template : nil
    }

    /// A value that means to read the environment must do so in a way a contract can: a typo in
    /// `${env:…}` would otherwise be sent as text and fail only when verify runs.
    private static func checkPlaceholders(in value: JSONValue, name: String) throws(DiagnosticsError) {
        switch value {
        case .string(let string):
            guard string.contains("${env:") || string.contains("${capture:") else { return }
            let parsed: TemplateString
            do throws(TemplateSyntaxError) {
                parsed = try TemplateString(parsing: string)
            } catch {
                throw DiagnosticsError(argument: "--value '\(name)': \(error.message)")
            }
            guard parsed.capturedVariables.isEmpty else {
                throw DiagnosticsError(argument: "--value '\(name)': a value given here may use ${env:NAME}, not ${capture:…}, which only a case's setup steps define")
            }
        case .array(let elements):
            for element in elements { try checkPlaceholders(in: element, name: name) }
        case .object(let object):
            for member in object.members { try checkPlaceholders(in: member.value, name: name) }
        default:
            return
        }
    }
}
