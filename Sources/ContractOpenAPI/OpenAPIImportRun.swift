import ContractJSON
import ContractModel

/// What `contract import openapi` made: the import (with its warnings) and what changed in the
/// folder.
public struct OpenAPIImportSummary: Sendable {
    public var result: ImportResult
    public var written: ImportWriter.Outcome
}

/// `contract import openapi` as one call: check the `--value`s, import the document, write the
/// folder, and say what happened. The executable declares the options and prints the result.
public enum OpenAPIImportRun {
    /// Stops (exit 2, nothing written) when a `--value` is not `NAME=VALUE` or misuses a
    /// placeholder, when the document cannot be imported, or when the folder is refused. The
    /// warnings of an import come back as diagnostics, in the document's order.
    /// - Parameters:
    ///   - document: the OpenAPI document's path, as shown in diagnostics too.
    ///   - out: the folder the contracts are written into.
    ///   - values: `--value NAME=VALUE`s as typed (``GivenValues``); those an earlier import of
    ///     the folder was given are kept, and those given now win.
    public static func run(document: String, out: String, values: [String]) -> CommandResult<OpenAPIImportSummary> {
        let given: [String: JSONValue]
        do {
            given = ImportWriter.recordedValues(in: out).merging(try GivenValues.parse(values)) { _, now in now }
        } catch {
            return .refused(error)
        }
        let summary: OpenAPIImportSummary
        do {
            let result = try OpenAPIImporter.importDocument(path: document, shownAs: document, values: given)
            summary = OpenAPIImportSummary(result: result, written: try ImportWriter.write(result, to: out, source: document, values: given))
        } catch {
            return .stopped(error, consequence: "nothing was written")
        }
        return CommandResult(exitCode: 0, summary: summary, output: summary.text(out: out), diagnostics: summary.result.diagnostics)
    }
}

extension OpenAPIImportSummary {
    /// What the import wrote, then what a person must do next: the servers to verify against, the
    /// environment variables to set, the request values made up for want of examples.
    func text(out: String) -> String {
        var lines: [String] = []
        let removed = written.removed.isEmpty ? "" : ", \(written.removed.count) removed"
        lines.append(
            "\(counted(result.contractCount, "contract")) with \(counted(result.caseCount, "case")) in \(out): "
                + "\(counted(written.written.count, "file")) written, \(written.unchanged.count) unchanged\(removed)")
        for path in written.kept { lines.append("kept \(out)/\(path): no longer generated, but edited since the last import") }
        if !result.servers.isEmpty {
            lines.append("Servers in the document (pass one, or your own, as --base-url):")
            for server in result.servers { lines.append("  \(server)") }
        }
        if !result.variables.isEmpty {
            lines.append("Environment variables the contracts read (set them before 'contract verify'):")
            for variable in result.variables {
                lines.append("  \(variable.name): \(variable.usage)" + (variable.scheme.isEmpty ? "" : " (security scheme '\(variable.scheme)')"))
            }
        }
        if !result.madeUpValues.isEmpty {
            lines.append(
                "Request values the document gives no example for, made up from their schemas (give real ones with --value NAME=VALUE; the folder keeps them for later imports):")
            for value in result.madeUpValues {
                let cases = value.usedBy.prefix(3).joined(separator: ", ") + (value.usedBy.count > 3 ? " and \(value.usedBy.count - 3) more" : "")
                lines.append("  \(value.name) (\(value.location)) = \(CanonicalJSONWriter(style: .compact).string(value.value)): \(cases)")
            }
        }
        if result.contractCount > 0 { lines.append("Next: contract lint \(out) && contract verify --base-url URL \(out)") }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `1 case`, `2 cases`.
    private func counted(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
