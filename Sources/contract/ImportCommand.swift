import ArgumentParser
import ContractJSON
import ContractModel
import ContractOpenAPI

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Make contracts from an existing API description.",
        subcommands: [ImportOpenAPICommand.self]
    )
}

struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Make contracts from a Swagger 2.0 or OpenAPI 3.x document (YAML or JSON).",
        discussion: """
            One contract per operation, a case per response that the document's examples lead to, and one shared \
            schema file per component schema (docs/openapi.md). What a contract cannot express (callbacks, webhooks, \
            links, XML bodies, cookies) is skipped with a warning that names its place in the document, and what \
            the document gets wrong (a reference to nowhere, a schema keyword no JSON Schema allows) is mended or left \
            out with a warning: only what it touches is lost. Security schemes become ${env:NAME} placeholders, \
            listed at the end. Warnings go to standard error.

            DIR/.contract-import.json records the files the import wrote: importing again rewrites only those, \
            never a file a person wrote or edited.

            Exit codes: 0 imported (warnings allowed); 2 a file that is not a YAML or JSON document of a version \
            the import reads, a file in DIR the import does not own, or invalid arguments (nothing is written).
            """
    )

    @Argument(help: "The OpenAPI document.")
    var file: String

    @Option(help: "The folder to write the contracts into (created when missing).")
    var out: String

    @Option(
        name: .customLong("value"),
        help: "Send this value for every parameter of this name, 'NAME=VALUE' (VALUE as JSON when it parses, else text; ${env:NAME} is kept as a placeholder for verify to fill); repeatable.")
    var values: [String] = []

    func run() throws {
        let result: ImportResult
        let outcome: ImportWriter.Outcome
        switch OpenAPIImportRun.run(document: file, out: out, values: values) {
        case .invalidArguments(let error):
            throw ValidationError(error.message)
        case .failed(let diagnostics):
            for diagnostic in diagnostics { printError(diagnostic.printed) }
            printError("nothing was written")
            throw ExitCode(2)
        case .imported(let imported, let written):
            result = imported
            outcome = written
        }
        // Warnings and notes go to standard error, in the document's order, as a compiler's do.
        for diagnostic in result.diagnostics { printError(diagnostic.rendered) }
        let removed = outcome.removed.isEmpty ? "" : ", \(outcome.removed.count) removed"
        print(
            "\(counted(result.contractCount, "contract")) with \(counted(result.caseCount, "case")) in \(out): "
                + "\(counted(outcome.written.count, "file")) written, \(outcome.unchanged.count) unchanged\(removed)")
        for path in outcome.kept { print("kept \(out)/\(path): no longer generated, but edited since the last import") }
        if !result.servers.isEmpty {
            print("Servers in the document (pass one, or your own, as --base-url):")
            for server in result.servers { print("  \(server)") }
        }
        if !result.variables.isEmpty {
            print("Environment variables the contracts read (set them before 'contract verify'):")
            for variable in result.variables {
                print("  \(variable.name): \(variable.usage)" + (variable.scheme.isEmpty ? "" : " (security scheme '\(variable.scheme)')"))
            }
        }
        if !result.madeUpValues.isEmpty {
            print("Request values the document gives no example for, made up from their schemas (give real ones with --value NAME=VALUE; the folder keeps them for later imports):")
            for value in result.madeUpValues {
                let cases = value.usedBy.prefix(3).joined(separator: ", ") + (value.usedBy.count > 3 ? " and \(value.usedBy.count - 3) more" : "")
                print("  \(value.name) (\(value.location)) = \(CanonicalJSONWriter(style: .compact).string(value.value)): \(cases)")
            }
        }
        if result.contractCount > 0 { print("Next: contract lint \(out) && contract verify --base-url URL \(out)") }
    }

    /// `1 case`, `2 cases`.
    private func counted(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
