import ContractJSON
import ContractModel

/// A schema as its keywords, with `$ref`s followed: a referenced schema's keywords, then the
/// referring object's own beside them. Draft 2020-12 applies both: `required` lists are joined and
/// `properties` merged; where both write another keyword, the referring one is shown. Each keyword
/// keeps the place it is written at.
struct Flat {
    /// Keyword to its value and the place of the object that writes it.
    private(set) var members: [String: (value: JSONValue, place: SchemaResolver.Place)] = [:]
    /// Where the schema starts (after the references).
    let place: SchemaResolver.Place
    let isFalse: Bool
    private let view: TreeView
    /// The schema as written where it starts (after the references).
    private let resolved: JSONValue

    /// References are followed at most this many times in a row; a longer chain (or a loop of
    /// references to references) is compared as it stands.
    static let maxHops = 32

    init(_ value: JSONValue, at place: SchemaResolver.Place, in view: TreeView) {
        self.view = view
        origin = place
        var value = value
        var place = place
        var chain: [(JSONObject, SchemaResolver.Place)] = []
        while case .object(let object) = value, case .string(let reference)? = object["$ref"], chain.count < Self.maxHops,
            let (target, targetPlace) = view.resolver.resolve(reference, from: place)
        {
            chain.append((object, place))
            value = target
            place = targetPlace
        }
        self.place = place
        isFalse = value == .bool(false)
        resolved = value
        if case .object(let object) = value {
            for member in object.members where member.key != "$ref" { members[member.key] = (member.value, place) }
        }
        // The referring objects' own keywords, the nearest last so it is the one kept.
        for (object, objectPlace) in chain.reversed() {
            for member in object.members where member.key != "$ref" { add(member.key, member.value, objectPlace) }
        }
    }

    /// A keyword written beside a `$ref`: both apply, so lists of required names join and
    /// property schemas merge; for any other keyword the nearer one is shown.
    private mutating func add(_ keyword: String, _ value: JSONValue, _ place: SchemaResolver.Place) {
        switch (keyword, members[keyword]?.value, value) {
        case ("required", .array(let first)?, .array(let second)):
            members[keyword] = (.array(first + second.filter { !first.contains($0) }), place)
        case ("properties", .object(let first)?, .object(let second)):
            var merged = first.members.filter { member in second[member.key] == nil }
            merged += second.members
            members[keyword] = (.object(JSONObject(merged)), place)
        default:
            members[keyword] = (value, place)
        }
    }

    /// Where the schema is written, before any reference is followed.
    let origin: SchemaResolver.Place

    /// The side of a change to the schema as a whole: made only for a change, since it writes
    /// the schema out and looks its place up, and every node of both schemas is a `Flat`.
    var whole: Change.Side {
        view.side(TreeView.shown(resolved), file: place.file, pointer: place.pointer)
    }

    /// Identifies the schema compared: where it is written and where its references lead, so a
    /// recursive schema is compared once, and two references to one schema with different
    /// keywords beside them are each compared.
    var key: String { origin.file + "#" + origin.pointer.description + ">" + place.file + "#" + place.pointer.description }

    /// Whether any keyword constrains values: `{}`, `true` and a schema of annotations only do not.
    var validates: Bool {
        isFalse || members.keys.contains { !Self.annotations.contains($0) }
    }

    private static let annotations: Set<String> = [
        "title", "description", "examples", "example", "default", "deprecated", "readOnly", "writeOnly", "$comment", "$schema", "$id", "$anchor",
        "$dynamicAnchor", "$defs", "definitions", "$vocabulary",
    ]

    func value(_ keyword: String) -> JSONValue? { members[keyword]?.value }
    func string(_ keyword: String) -> String? { value(keyword)?.stringValue }
    func array(_ keyword: String) -> [JSONValue]? { value(keyword)?.arrayValue }
    func object(_ keyword: String) -> JSONObject? { value(keyword)?.objectValue }
    func number(_ keyword: String) -> Double? { value(keyword)?.numberValue?.doubleValue }
    func strings(_ keyword: String) -> Set<String> { Set(array(keyword)?.compactMap(\.stringValue) ?? []) }
    func text(_ keyword: String) -> String? { value(keyword).map(TreeView.shown) }

    /// The kinds of JSON value the schema's `type` allows; every kind when it has none.
    /// `number` allows `integer` and fractions; `integer` only the first.
    var kinds: Set<String> {
        let written: [String]
        switch value("type") {
        case .string(let type)?: written = [type]
        case .array(let types)?: written = types.compactMap(\.stringValue)
        default: return Self.allKinds
        }
        return Set(written.flatMap { $0 == "number" ? ["integer", "fraction"] : [$0] })
    }

    private static let allKinds: Set<String> = ["null", "boolean", "object", "array", "string", "integer", "fraction"]
    static let numberKinds: Set<String> = ["integer", "fraction"]

    /// The place of a child of a keyword's value (`properties` / `name`).
    func childPlace(_ keyword: String, _ tokens: String...) -> SchemaResolver.Place {
        let holder = members[keyword]?.place ?? place
        var child = view.resolver.child(keyword, of: holder)
        for token in tokens { child = view.resolver.child(token, of: child) }
        return child
    }

    /// The side of a change for `keyword`: its value and where it is written, or, when the
    /// schema does not write it, the schema itself.
    func side(_ keyword: String) -> Change.Side {
        guard let (value, holder) = members[keyword] else {
            return view.side(nil, file: place.file, pointer: place.pointer)
        }
        return view.side(TreeView.shown(value), file: holder.file, pointer: holder.pointer.appending(keyword))
    }
}
