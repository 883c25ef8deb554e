import ContractJSON

/// The outcome of `contract lint`: the diagnostics and what was checked, in the two output formats.
public struct LintReport: Sendable {
    public var diagnostics: [Diagnostic]
    public var contractCount: Int
    public var caseCount: Int

    public init(_ contracts: ContractSet) {
        diagnostics = contracts.diagnostics
        contractCount = contracts.contracts.count
        caseCount = contracts.contracts.reduce(0) { $0 + $1.cases.count }
    }

    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }

    /// 0 when there is no error (warnings allowed), 2 otherwise: the exit code of `contract lint`.
    public var exitCode: Int32 { errorCount == 0 ? 0 : 2 }

    /// One compiler-style line per diagnostic, then a summary line.
    public func renderText() -> String {
        var lines = diagnostics.map(\.rendered)
        let checked = "\(plural(contractCount, "contract")) with \(plural(caseCount, "case"))"
        if errorCount == 0 && warningCount == 0 {
            lines.append("\(checked): no problems")
        } else {
            lines.append("\(checked): \(plural(errorCount, "error")), \(plural(warningCount, "warning"))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"diagnostics": [...], "errorCount": n, "warningCount": n, ...}`, keys sorted, for editors and CI.
    public func renderJSON() -> String {
        var object = JSONObject()
        object["diagnostics"] = .array(diagnostics.map(\.jsonValue))
        object["errorCount"] = .number(JSONNumber(errorCount))
        object["warningCount"] = .number(JSONNumber(warningCount))
        object["contractCount"] = .number(JSONNumber(contractCount))
        object["caseCount"] = .number(JSONNumber(caseCount))
        return CanonicalJSONWriter(style: .pretty).string(.object(object))
    }

    private func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
