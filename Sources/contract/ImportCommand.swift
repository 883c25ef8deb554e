import ArgumentParser
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
        try OpenAPIImportRun.run(document: file, out: out, values: values).exit(command: "import openapi")
    }
}
