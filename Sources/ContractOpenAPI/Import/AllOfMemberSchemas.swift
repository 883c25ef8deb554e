import ContractJSON
import ContractModel

/// `additionalProperties` with a schema (not `false`) on an object that `allOf` puts together
/// with others, found in the document before conversion.
///
/// Microsoft Graph writes every entity so: `entity` has `properties: {id}` and
/// `additionalProperties: {type: object}`, and `user` is `allOf: [directoryObject, {properties:
/// {accountEnabled: …}, additionalProperties: {type: object}}]`. Each `additionalProperties`
/// sees only the properties of its own schema, so `entity`'s holds `accountEnabled: true` to
/// `type: object`, and the part's holds `id`: no user could match. The author meant the object
/// the parts make together to take other members of that schema, members any part declares
/// being held only to their declarations: `unevaluatedProperties` with that schema on the
/// object `allOf` makes. So each such `additionalProperties` (beside the `allOf`, inside a part,
/// or in a schema a part refers to) is left out, and the `allOf` gets `unevaluatedProperties`
/// with the schemas it had. An object that is itself extended (a part of another `allOf`) stays
/// open: its own `unevaluatedProperties` would see only its own properties again, so the
/// object extending it holds the members no part declares.
struct AllOfMemberSchemas {
    /// Schemas whose `additionalProperties` is left out, with the warning that says why.
    private(set) var leftOut: [JSONPointer: String] = [:]
    /// Schemas with `allOf` that take `unevaluatedProperties`, with where in the document each
    /// schema it is made of is (an `additionalProperties` left out).
    private(set) var unevaluated: [JSONPointer: [JSONPointer]] = [:]
    private let document: OpenAPIDocument
    /// The schema objects `allOf` parts are, where each is (the part's own place, or where its reference leads).
    private var extended: Set<JSONPointer> = []
    /// What ``sources(of:)`` found, per schema object.
    private var found: [JSONPointer: [JSONPointer]] = [:]

    /// How many references or nested `allOf`s are followed from one schema: far beyond real use.
    private static let maximumDepth = 64

    init(document: OpenAPIDocument) {
        self.document = document
        let holders = Self.holders(in: document)
        for (_, pointer, parts) in holders {
            for (index, part) in parts.enumerated() {
                if let (_, at) = document.resolved(part, at: pointer.appending("allOf").appending(index)) { extended.insert(at) }
            }
        }
        for (object, pointer, parts) in holders {
            var depth = 0
            let sources = sources(of: object, at: pointer, depth: &depth)
            guard !sources.isEmpty else { continue }
            if Self.memberSchema(object) != nil {
                leftOut[pointer] =
                    "'additionalProperties' beside 'allOf' holds the properties its parts describe to its schema; read as the schema of the members no part describes ('unevaluatedProperties')"
            }
            for (index, part) in parts.enumerated() {
                let partPointer = pointer.appending("allOf").appending(index)
                guard let (partObject, at) = document.resolved(part, at: partPointer), Self.memberSchema(partObject) != nil else { continue }
                // The first `allOf` that extends a shared base names it; the mend is the same for every one.
                guard leftOut[at] == nil else { continue }
                leftOut[at] =
                    at == partPointer
                    ? "'additionalProperties' inside one 'allOf' part holds the properties of the others to its schema; read as the schema of the members no part describes ('unevaluatedProperties' on the whole object)"
                    : "'additionalProperties' of a schema that 'allOf' extends (in \(Self.shown(pointer))) holds the properties the other parts add to its schema; left out here, and read as the schema of the members no part describes ('unevaluatedProperties') on the object that extends it"
            }
            if !extended.contains(pointer) { unevaluated[pointer] = sources }
        }
    }

    /// Every object with a non-empty `allOf`, where it is, and its parts; extensions and example
    /// data hold no schemas, but the bundled files do.
    static func holders(in document: OpenAPIDocument) -> [(JSONObject, JSONPointer, [JSONValue])] {
        var result: [(JSONObject, JSONPointer, [JSONValue])] = []
        var pending: [(JSONValue, JSONPointer)] = [(.object(document.root), .root)]
        while let (value, pointer) = pending.popLast() {
            switch value {
            case .object(let object):
                if case .array(let parts)? = object["allOf"], !parts.isEmpty { result.append((object, pointer, parts)) }
                for member in object {
                    let bundled = pointer.isRoot && member.key == ExternalReferences.area
                    guard bundled || !member.key.hasPrefix("x-"),
                        !(ExternalReferences.isData(member.key, member.value) && !ExternalReferences.isNameMap(pointer))
                    else { continue }
                    pending.append((member.value, pointer.appending(member.key)))
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() { pending.append((element, pointer.appending(index))) }
            default:
                break
            }
        }
        return result.sorted { $0.1.tokens.lexicographicallyPrecedes($1.1.tokens) }
    }

    /// Where the member schemas of `object` (at `pointer`) and of its parts, through references
    /// and nested `allOf`s, are in the document.
    private mutating func sources(of object: JSONObject, at pointer: JSONPointer, depth: inout Int) -> [JSONPointer] {
        if let known = found[pointer] { return known }
        depth += 1
        guard depth < Self.maximumDepth else { return [] }
        // A cycle through `allOf` finds nothing more on its way back.
        found[pointer] = []
        var result: [JSONPointer] = []
        if Self.memberSchema(object) != nil { result.append(pointer.appending("additionalProperties")) }
        for (index, part) in (object["allOf"]?.arrayValue ?? []).enumerated() {
            guard let (partObject, at) = document.resolved(part, at: pointer.appending("allOf").appending(index)) else { continue }
            for source in sources(of: partObject, at: at, depth: &depth) where !result.contains(source) { result.append(source) }
        }
        found[pointer] = result
        return result
    }

    /// The schema `additionalProperties` holds other members to, when it is one that says
    /// something (`{type: object}`; not `false`, `true` or `{}`).
    private static func memberSchema(_ object: JSONObject) -> JSONObject? {
        guard case .object(let schema)? = object["additionalProperties"], !schema.isEmpty else { return nil }
        return schema
    }

    /// `'Pet'` for a component, else the pointer.
    private static func shown(_ pointer: JSONPointer) -> String {
        let tokens = pointer.tokens
        if tokens.count == 3, tokens[0] == "components", tokens[1] == "schemas" { return "'\(tokens[2])'" }
        return "'\(pointer.description)'"
    }
}
