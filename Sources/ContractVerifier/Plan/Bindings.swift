import ContractJSON
import ContractModel

/// The values placeholders stand for while a case runs: the environment's (secrets) and the
/// values captured by the case's setup steps, and the case's own `${unique:…}` values.
struct Bindings: Sendable {
    var environment: [String: String]
    var captures: [String: JSONValue] = [:]
    /// The URL of the request whose response gave each capture: what a relative link it holds
    /// is resolved against.
    var linkReferrers: [String: String] = [:]
    /// The captures that are text by where they came from (a header, or the part of a text a
    /// pattern picked), not by a JSON body's type: only these equal a number they write (by value).
    var textCaptures: Set<String> = []
    /// The case's own `${unique:…}` values (``UniqueValues/forCase(_:)`` of the run's, which the
    /// case runner gives); the stable ones where no case runs (a check of a response alone).
    var unique = UniqueValues.stable

    /// A value a capture made from the response to the request sent to `url`: kept with where it
    /// came from, which a relative link it holds resolves against, and whether it is text by its
    /// source.
    mutating func keep(_ value: JSONValue, capturedBy capture: SetupStep.Capture, from url: String) {
        let variable = capture.variable
        captures[variable] = value
        linkReferrers[variable] = url
        var isText = capture.pattern != nil
        if case .header = capture.source { isText = true }
        if isText { textCaptures.insert(variable) } else { textCaptures.remove(variable) }
    }

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
        if let literal = template.literalText { return literal }
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
            guard string.mayHoldPlaceholder, let template = try? TemplateString(parsing: string) else { return body }
            if let name = template.singleCapture, let value = captures[name] {
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

extension Bindings {
    /// A value a response is held to, as a message names it: `the captured 'itemId' (41)` for a
    /// lone capture, else the value with its placeholders filled in (secrets masked).
    func describe(_ value: JSONValue) -> String {
        if case .string(let text) = value, text.mayHoldPlaceholder, let template = try? TemplateString(parsing: text) {
            return describe(template)
        }
        return ResponseChecker.clip(CanonicalJSONWriter(style: .compact).string(value), to: 80)
    }

    func describe(_ template: TemplateString) -> String {
        if let name = template.singleCapture {
            let value = captures[name].map { ResponseChecker.clip(CanonicalJSONWriter(style: .compact).string($0), to: 80) } ?? "not captured"
            return "the captured '\(name)' (\(value))"
        }
        return "'\(ResponseChecker.clip(display(template), to: 80))'"
    }

    /// A pattern as written, with each placeholder's value inserted as literal text: the
    /// characters a regular expression reads as syntax are escaped, and the value is one group,
    /// so a quantifier after the placeholder repeats the whole value (`${capture:id}+`), and an
    /// empty value leaves something to repeat.
    func pattern(_ written: String) -> String {
        guard written.mayHoldPlaceholder, let template = try? TemplateString(parsing: written) else { return written }
        var pattern = ""
        for segment in template.segments {
            switch segment {
            case .literal(let literal): pattern += literal
            case .env(let name): pattern += Self.grouped(environment[name] ?? "")
            case .capture(let name): pattern += Self.grouped(captures[name].map(Self.text) ?? "")
            case .unique(let name): pattern += Self.grouped(unique.value(for: name))
            }
        }
        return pattern
    }

    /// `text` escaped, as a group that captures nothing (the pattern's own groups keep their numbers).
    static func grouped(_ text: String) -> String {
        "(?:" + escaped(text) + ")"
    }

    /// The values a pattern's placeholders stood for, for a message: ` (itemId: 41)`; secrets
    /// never shown.
    func patternValues(_ written: String) -> String {
        guard written.mayHoldPlaceholder, let template = try? TemplateString(parsing: written) else { return "" }
        let named = template.capturedVariables.map { "\($0): \(captures[$0].map(Self.text).map { ResponseChecker.clip($0, to: 60) } ?? "not captured")" }
        return named.isEmpty ? "" : " (\(named.joined(separator: ", ")))"
    }

    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}/".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
