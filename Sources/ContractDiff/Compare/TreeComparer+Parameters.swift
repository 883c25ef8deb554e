import ContractJSON
import ContractModel

extension TreeComparer {
    /// The parameters the endpoint describes (`request.parameters`), OLD against NEW, by location
    /// and name (a header's ignoring case): required or not, how an array is written, and the
    /// schema, compared keyword by keyword as a request body's is (a parameter without a schema
    /// takes any value: `{}`).
    mutating func compareParameterDescriptions(_ before: Contract, _ after: Contract) {
        let was = Self.described(before)
        let now = Self.described(after)
        for key in Set(was.keys).union(now.keys).sorted(by: { ($0.location, $0.name) < ($1.location, $1.name) }) {
            let subject = "\(key.location) parameter '\(now[key]?.name ?? was[key]?.name ?? key.name)'"
            switch (was[key], now[key]) {
            case (let a?, nil):
                add(.parameterRemoved, before, nil, subject: subject, "\(subject) is no longer described", old: old.side(nil, in: before, at: a.pointer), new: nil,
                    fixtures: Self.fixtures(of: before))
            case (nil, let b?):
                add(b.required ? .parameterRequired : .parameterAdded, before, nil, subject: subject,
                    b.required ? "\(subject) is required now: clients must send it" : "\(subject) is described now",
                    old: nil, new: new.side(nil, in: after, at: b.pointer), fixtures: Self.fixtures(of: before))
                // Nothing was said of it before: its schema is news, not a narrowing.
            case (let a?, let b?):
                if a.required != b.required {
                    add(b.required ? .parameterRequired : .parameterOptional, before, nil, subject: subject,
                        b.required ? "\(subject) is required now: clients must send it" : "\(subject) is optional now",
                        old: old.side(String(a.required), in: before, at: a.pointer), new: new.side(String(b.required), in: after, at: b.pointer),
                        fixtures: Self.fixtures(of: before))
                }
                if a.itemSeparator != b.itemSeparator || a.style != b.style, Self.mayBeArray(a) || Self.mayBeArray(b) {
                    add(.parameterStyleChanged, before, nil, subject: subject,
                        "\(subject): an array is written \(Self.written(b)) where it was \(Self.written(a))",
                        old: old.side(Self.written(a), in: before, at: a.pointer), new: new.side(Self.written(b), in: after, at: b.pointer),
                        fixtures: Self.fixtures(of: before))
                }
                compareSchemas(a, b, before, after, subject: subject)
            case (nil, nil):
                continue
            }
        }
    }

    private mutating func compareSchemas(_ a: RequestParameter, _ b: RequestParameter, _ before: Contract, _ after: Contract, subject: String) {
        guard a.schema != nil || b.schema != nil else { return }
        let any = JSONValue.object(JSONObject())
        let oldReference = a.schema ?? SchemaReference(schema: any, file: before.file, pointer: a.pointer.appending("schema"))
        let newReference = b.schema ?? SchemaReference(schema: any, file: after.file, pointer: b.pointer.appending("schema"))
        var schemas = SchemaComparer(old: old, new: new)
        let (oldSchema, oldAt) = old.resolver.schema(oldReference, relativeFile: old.relativePath(of: before))
        let (newSchema, newAt) = new.resolver.schema(newReference, relativeFile: new.relativePath(of: after))
        schemas.compare(oldSchema, at: oldAt, newSchema, at: newAt)
        for finding in schemas.findings {
            let place = finding.path == "/" || finding.path.isEmpty ? "" : " \(finding.path)"
            changes.append(Change(
                rule: finding.concept.rule(on: .parameter), severity: finding.concept.severity(on: .parameter), contractID: before.id, caseName: nil,
                subject: "\(subject)\(place)", message: "\(subject)\(place): \(finding.message)", old: finding.old, new: finding.new,
                fixtures: Self.fixtures(of: before)))
        }
    }

    /// Only an array is written differently by another style: a scalar reads the same.
    private static func mayBeArray(_ parameter: RequestParameter) -> Bool {
        switch parameter.schema?.schema.objectValue?["type"] {
        case .string(let type)?: type == "array"
        case .array(let types)?: types.contains(.string("array"))
        default: true
        }
    }

    /// How an array is written: `ids=1&ids=2` (repeated) or joined with `,`, ` ` or `|`.
    private static func written(_ parameter: RequestParameter) -> String {
        parameter.itemSeparator.map { "joined with '\($0)'" } ?? "as one parameter per item"
    }

    struct ParameterKey: Hashable {
        let location: String
        let name: String
    }

    private static func described(_ contract: Contract) -> [ParameterKey: RequestParameter] {
        var result: [ParameterKey: RequestParameter] = [:]
        for parameter in contract.endpoint.parameters {
            // Path parameters are matched by position in the path: renaming a placeholder is no change.
            let name = parameter.location == .path
                ? "{\(contract.endpoint.path.placeholders.firstIndex(of: parameter.name).map(String.init) ?? parameter.name)}"
                : parameter.location == .header ? parameter.name.lowercased() : parameter.name
            result[ParameterKey(location: parameter.location.rawValue, name: name)] = parameter
        }
        return result
    }
}
