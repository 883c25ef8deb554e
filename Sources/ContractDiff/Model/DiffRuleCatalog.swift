/// Every rule `contract diff` reports, with its severity: the rules outside schemas, then each
/// schema concept on the request side and on the response side. docs/diff-rules.md lists exactly
/// these (a test keeps them in step).
public enum DiffRuleCatalog {
    public struct Entry: Sendable, Hashable {
        public var id: String
        public var severity: Change.Severity
        public var summary: String
    }

    public static var contractRules: [Entry] {
        ContractRule.all.map { Entry(id: $0.id, severity: $0.severity, summary: $0.summary) }
    }

    /// Schema rules on one side: `request-type-widened`, `response-type-widened`…
    public static func schemaRules(on side: MessageSide) -> [Entry] {
        SchemaConcept.all.map { Entry(id: $0.rule(on: side), severity: $0.severity(on: side), summary: $0.summary) }
    }

    public static var all: [Entry] {
        contractRules + MessageSide.allCases.flatMap(schemaRules)
    }
}
