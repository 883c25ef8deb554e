import ContractJSON
import Testing

@testable import ContractSchema

/// `SchemaProblem.Kind` is a struct over a private enum, so adding a kind breaks no user.
struct SchemaProblemTests {
    @Test func kindsAreToldApartAndNamed() throws {
        let kinds: [(SchemaProblem.Kind, String)] = [
            (.unresolvableReference, "unresolvableReference"), (.referenceCycle, "referenceCycle"), (.invalidKeyword, "invalidKeyword"),
        ]
        #expect(kinds.count == SchemaProblem.Kind.Base.allCases.count)
        for (kind, name) in kinds {
            #expect("\(kind)" == name)
            #expect(kinds.filter { $0.0 == kind }.count == 1, "\(name)")
        }
    }

    @Test func aCompilerProblemHasItsKind() throws {
        let schema = try JSONParser().parse(#"{"$ref": "https://nowhere.example/x.json"}"#).value
        let error = #expect(throws: SchemaCompilationError.self) { try JSONSchema(schema, uri: "https://example.com/s.json") }
        #expect(error?.problems.map(\.kind) == [.unresolvableReference])
    }
}
