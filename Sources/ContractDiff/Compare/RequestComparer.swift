import ContractJSON
import ContractModel
import ContractSchema

/// What a case sends, OLD against NEW, as the request side reads it: a body where there was none,
/// another media type, the request schema (``SchemaComparer`` read as a request), and the
/// concrete evidence: the body OLD sends, checked against NEW's schema.
struct RequestComparer {
    let old: TreeView
    let new: TreeView
    let newCatalog: SchemaCatalog
    let oldContract: Contract
    let newContract: Contract
    let oldCase: ContractCase
    let newCase: ContractCase
    private(set) var findings: [CaseFinding] = []

    init(
        old: TreeView, new: TreeView, newCatalog: SchemaCatalog, oldContract: Contract, newContract: Contract, oldCase: ContractCase,
        newCase: ContractCase
    ) {
        self.old = old
        self.new = new
        self.newCatalog = newCatalog
        self.oldContract = oldContract
        self.newContract = newContract
        self.oldCase = oldCase
        self.newCase = newCase
    }

    private func oldSide(_ value: String?, _ tokens: String...) -> Change.Side {
        old.side(value, in: oldContract, at: JSONPointer(tokens: oldCase.pointer.tokens + ["request"] + tokens))
    }

    private func newSide(_ value: String?, _ tokens: String...) -> Change.Side {
        new.side(value, in: newContract, at: JSONPointer(tokens: newCase.pointer.tokens + ["request"] + tokens))
    }

    mutating func compare() {
        let (before, after) = (oldCase.request, newCase.request)
        switch (before.body, after.body) {
        case (nil, _?):
            findings.append(CaseFinding(.requestBodyAdded, subject: "request body", "request body: the case sends one now", old: nil, new: newSide(nil, "body")))
        case (_?, nil):
            findings.append(CaseFinding(.requestBodyRemoved, subject: "request body", "request body: the case sends none now", old: oldSide(nil, "body"), new: nil))
        default:
            break
        }
        let (oldType, newType) = (Self.contentType(oldContract, oldCase), Self.contentType(newContract, newCase))
        if before.body != nil, after.body != nil, let oldType, let newType, MediaType.essence(oldType) != MediaType.essence(newType) {
            findings.append(CaseFinding(
                .requestContentTypeChanged, subject: "request Content-Type", "request Content-Type '\(oldType)' to '\(newType)'",
                old: oldSide(oldType, "headers"), new: newSide(newType, "headers")))
        }
        // The case's own schema, else the endpoint's: moving a schema from the cases to the
        // endpoint is no change.
        let (oldSchema, newSchema) = (oldContract.requestSchema(for: oldCase), newContract.requestSchema(for: newCase))
        compareSchemas(oldSchema, newSchema)
        if case .json(let body)? = before.body, let reference = newSchema {
            let newSide = new.side(nil, in: newContract, at: reference.pointer)
            do {
                let schema = try newCatalog.compile(reference)
                if let first = schema.validate(JSONTape(body), keepingAtMost: 1).errors.first {
                    let place = first.instanceLocation.isRoot ? "/" : first.instanceLocation.description
                    findings.append(CaseFinding(
                        .requestBodyRejected, subject: "request body", "request body: what the case sent fails the new schema at \(place): \(first.message)",
                        old: oldSide(TreeView.shown(body), "body"), new: newSide))
                }
            } catch {
                // Never a pass: a schema that cannot be compiled held nothing to the body.
                let reason = error.problems.first.map { MessageText.clipped($0.description, to: 200) } ?? "no reason given"
                findings.append(CaseFinding(
                    .requestBodyRejected, subject: "request body", "request body: could not be checked: the new schema does not compile: \(reason)",
                    old: oldSide(TreeView.shown(body), "body"), new: newSide))
            }
        }
    }

    private mutating func compareSchemas(_ before: SchemaReference?, _ after: SchemaReference?) {
        switch (before, after) {
        case (nil, nil):
            return
        case (nil, let added?):
            findings.append(CaseFinding(
                .requestSchemaAdded, subject: "request schema", "request schema added", old: nil, new: new.side(nil, in: newContract, at: added.pointer)))
        case (let removed?, nil):
            findings.append(CaseFinding(
                .requestSchemaRemoved, subject: "request schema", "request schema taken out", old: old.side(nil, in: oldContract, at: removed.pointer), new: nil))
        case (let a?, let b?):
            var schemas = SchemaComparer(old: old, new: new)
            let (oldSchema, oldAt) = old.resolver.schema(a, relativeFile: old.relativePath(of: oldContract))
            let (newSchema, newAt) = new.resolver.schema(b, relativeFile: new.relativePath(of: newContract))
            schemas.compare(oldSchema, at: oldAt, newSchema, at: newAt)
            findings += CaseFinding.schema(schemas.findings, side: .request)
        }
    }

    /// The media type the case's body goes as: its Content-Type header, else what the body is.
    private static func contentType(_ contract: Contract, _ testCase: ContractCase) -> String? {
        if let header = contract.headers(for: testCase).first(where: { $0.name.lowercased() == "content-type" }), let value = header.value {
            return value.description
        }
        switch testCase.request.body {
        case .json?: return "application/json"
        case .text?: return "text/plain"
        case nil: return nil
        }
    }
}
