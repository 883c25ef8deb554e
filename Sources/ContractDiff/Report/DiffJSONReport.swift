import ContractJSON

/// `--report json=PATH`: every change in full, for tools. Canonical JSON (keys sorted, stable
/// numbers and strings), so the same result is the same file; versioned, the layout documented
/// with the command. Nothing is clipped here: the text and Markdown forms clip, this one is the
/// place to read a value whole.
enum DiffJSONReport {
    static let format = "contract-diff-report"
    static let version = 1

    static func render(_ result: DiffResult, failOn: Change.Severity) -> String {
        let summary: JSONValue = .object(JSONObject([
            member("breaking", number(result.count(.breaking))),
            member("warning", number(result.count(.warning))),
            member("safe", number(result.count(.safe))),
            member("ignored", number(result.ignored.count)),
        ]))
        let ignored = DiffReport.ignored(result).map { entry in
            JSONValue.object(JSONObject(changeMembers(entry.change) + [member("reason", .string(entry.reason))]))
        }
        let document: JSONValue = .object(JSONObject([
            member("format", .string(format)),
            member("version", number(version)),
            member("old", .string(result.old)),
            member("new", .string(result.new)),
            member("failOn", .string(failOn.rawValue)),
            member("exitCode", number(Int(result.exitCode(failOn: failOn)))),
            member("summary", summary),
            member("changes", .array(result.changes.map { .object(JSONObject(changeMembers($0))) })),
            member("ignored", .array(ignored)),
            member("unusedIgnores", .array(result.unusedIgnores.sorted().map { .string($0) })),
        ]))
        return CanonicalJSONWriter(style: .pretty).string(document)
    }

    /// A change's keys; `case`, `old` and `new` only when it has them, `fixtures` always (an
    /// empty list says no fixture sees the change).
    private static func changeMembers(_ change: Change) -> [JSONObject.Member] {
        var members = [
            member("rule", .string(change.rule)),
            member("severity", .string(change.severity.rawValue)),
            member("contract", .string(change.contractID)),
            member("subject", .string(change.subject)),
            member("message", .string(change.message)),
            member("fingerprint", .string(change.fingerprint)),
            member("fixtures", .array(change.fixtures.map { .string($0) })),
        ]
        if let caseName = change.caseName { members.append(member("case", .string(caseName))) }
        if let old = change.old { members.append(member("old", sideObject(old))) }
        if let new = change.new { members.append(member("new", sideObject(new))) }
        return members
    }

    private static func sideObject(_ side: Change.Side) -> JSONValue {
        var members = [member("file", .string(side.file)), member("pointer", .string(side.pointer))]
        if let value = side.value { members.append(member("value", .string(value))) }
        if let line = side.line { members.append(member("line", number(line))) }
        if let column = side.column { members.append(member("column", number(column))) }
        return .object(JSONObject(members))
    }

    private static func member(_ key: String, _ value: JSONValue) -> JSONObject.Member {
        JSONObject.Member(key: key, value: value)
    }

    private static func number(_ value: Int) -> JSONValue {
        .number(JSONNumber(value))
    }
}
