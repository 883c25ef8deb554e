import ContractJSON
import ContractModel
import ContractSchema

/// The document's schemas, as converted, against the draft 2020-12 meta-schema. OpenAPIKit lets
/// some schemas through that are no JSON Schema (`type: 7`, a `$ref` that is not a string); they
/// stop the import at their place in the document rather than become contracts lint rejects.
enum DocumentSchemaCheck {
    static func problems(_ schemas: [JSONPointer: JSONValue], in document: OpenAPIDocument) -> [Diagnostic] {
        guard let metaSchema = try? JSONSchema(compiling: SchemaDialect.draft2020_12.rawValue, registry: SchemaRegistry(), defaultDialect: .draft2020_12)
        else { return [] }
        var problems: [Diagnostic] = []
        for (pointer, schema) in schemas.sorted(by: { $0.key < $1.key }) {
            for error in metaSchema.validate(schema).errors.mostSpecific() {
                // The converted schema mirrors the document's, so the instance location is a place
                // in the document below the schema.
                let at = JSONPointer(tokens: pointer.tokens + error.instanceLocation.tokens)
                problems.append(.error(
                    "not a valid JSON Schema: \(error.message)", file: document.file, location: document.location(of: at), pointer: at))
            }
        }
        return problems
    }
}
