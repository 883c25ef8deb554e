import ContractJSON
import ContractModel

/// A change found inside a schema: the concept, where in the message (`/items/*/price`), and
/// both sides placed in their trees.
struct SchemaFinding: Sendable, Hashable {
    let concept: SchemaConcept
    /// The place in the message the schema describes; array elements as `*`.
    let path: String
    let message: String
    let old: Change.Side?
    let new: Change.Side?
}

/// Compares an OLD and a NEW schema keyword by keyword, after following `$ref`s on both sides, so
/// a schema moved to another file or renamed is no change. Each difference is a ``SchemaFinding``
/// whose concept says which way it moves the schema; the caller reads that through the side of
/// the exchange (``MessageSide``). Recursive schemas are compared once per pair of places.
struct SchemaComparer {
    let old: TreeView
    let new: TreeView
    private(set) var findings: [SchemaFinding] = []
    private var visited: Set<String> = []
    /// Deeper than this, a schema is not taken apart further (no real API nests this deep; a
    /// generated one could loop through places the visited set does not catch).
    static let maxDepth = 64

    init(old: TreeView, new: TreeView) {
        self.old = old
        self.new = new
    }

    /// Compares two schemas written at `oldPlace` and `newPlace`.
    mutating func compare(_ oldValue: JSONValue, at oldPlace: SchemaResolver.Place, _ newValue: JSONValue, at newPlace: SchemaResolver.Place) {
        compare(Flat(oldValue, at: oldPlace, in: old), Flat(newValue, at: newPlace, in: new), path: [], depth: 0)
    }

    private mutating func compare(_ o: Flat, _ n: Flat, path: [String], depth: Int) {
        guard depth < Self.maxDepth, visited.insert(o.key + "|" + n.key).inserted else { return }
        if n.isFalse != o.isFalse {
            report(n.isFalse ? .becameFalse : .becameTrue, path, "the schema \(n.isFalse ? "accepts no value" : "accepts any value") now", o.whole, n.whole)
            return
        }
        if !n.validates && o.validates {
            report(.becameTrue, path, "the schema accepts any value now", o.whole, n.whole)
            return
        }
        compareTypes(o, n, path)
        compareEnum(o, n, path)
        compareConst(o, n, path)
        // A keyword that applies to one kind of value says nothing once either side rules that
        // kind out: the type change already says it all (`minimum` of a price that is a string now).
        let shared = o.kinds.intersection(n.kinds)
        for keyword in BoundKeyword.allCases where !shared.isDisjoint(with: keyword.kinds) { compareBound(keyword, o, n, path) }
        if !shared.isDisjoint(with: Flat.numberKinds) { compareMultipleOf(o, n, path) }
        // Formats name numbers too (`int32`, `double`), and strings.
        if !shared.isEmpty { compareFormat(o, n, path) }
        if shared.contains("string") { comparePattern(o, n, path) }
        if shared.contains("array") {
            compareFlag("uniqueItems", added: .uniqueItemsAdded, removed: .uniqueItemsRemoved, o, n, path)
            compareArrays(o, n, path, depth)
        }
        if shared.contains("object") { compareObjects(o, n, path, depth) }
        for keyword in CombinationKeyword.allCases { compareCombination(keyword, o, n, path, depth) }
        for keyword in Self.opaqueKeywords { compareOpaque(keyword, o, n, path) }
    }

    // MARK: Keywords

    private mutating func compareTypes(_ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.kinds, n.kinds)
        guard before != after else { return }
        let (oldText, newText) = (o.text("type") ?? "any", n.text("type") ?? "any")
        if before.subtracting(["null"]) == after.subtracting(["null"]) {
            let nullable = after.contains("null")
            report(nullable ? .becameNullable : .becameNotNullable, path, nullable ? "may be null now (type \(oldText) to \(newText))" : "may not be null any more (type \(oldText) to \(newText))", o.side("type"), n.side("type"))
        } else if after.isSuperset(of: before) {
            report(.typeWidened, path, "type widened from \(oldText) to \(newText)", o.side("type"), n.side("type"))
        } else if after.isSubset(of: before) {
            report(.typeNarrowed, path, "type narrowed from \(oldText) to \(newText)", o.side("type"), n.side("type"))
        } else {
            report(.typeChanged, path, "type changed from \(oldText) to \(newText)", o.side("type"), n.side("type"))
        }
    }

    private mutating func compareFormat(_ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.string("format"), n.string("format"))
        guard before != after else { return }
        let concept: SchemaConcept
        switch (before, after) {
        case (nil, _): concept = .formatAdded
        case (_, nil): concept = .formatRemoved
        case (let a?, let b?): concept = Self.formatWidenings.contains([a, b]) ? .formatWidened : Self.formatWidenings.contains([b, a]) ? .formatNarrowed : .formatChanged
        }
        report(concept, path, "format \(before.map { "'\($0)'" } ?? "none") to \(after.map { "'\($0)'" } ?? "none")", o.side("format"), n.side("format"))
    }

    /// Formats whose values are all values of another: `[narrower, wider]`.
    private static let formatWidenings: Set<[String]> = [["int32", "int64"], ["float", "double"], ["int32", "integer"], ["int64", "integer"]]

    private mutating func compareEnum(_ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.array("enum"), n.array("enum"))
        guard before != after else { return }
        guard let before, let after else {
            report(before == nil ? .enumAdded : .enumRemoved, path, before == nil ? "enum \(n.text("enum") ?? "") added" : "enum \(o.text("enum") ?? "") taken out", o.side("enum"), n.side("enum"))
            return
        }
        let added = after.filter { !before.contains($0) }
        let removed = before.filter { !after.contains($0) }
        if !added.isEmpty {
            report(.enumValueAdded, path, "enum value\(added.count == 1 ? "" : "s") \(Self.list(added)) added", o.side("enum"), n.side("enum"))
        }
        if !removed.isEmpty {
            report(.enumValueRemoved, path, "enum value\(removed.count == 1 ? "" : "s") \(Self.list(removed)) taken out", o.side("enum"), n.side("enum"))
        }
    }

    private mutating func compareConst(_ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.value("const"), n.value("const"))
        guard before != after else { return }
        let concept: SchemaConcept = before == nil ? .constAdded : after == nil ? .constRemoved : .constChanged
        report(concept, path, "const \(o.text("const") ?? "none") to \(n.text("const") ?? "none")", o.side("const"), n.side("const"))
    }

    private mutating func compareBound(_ keyword: BoundKeyword, _ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.number(keyword.rawValue), n.number(keyword.rawValue))
        guard before != after else { return }
        let action: BoundAction
        switch (before, after) {
        case (nil, _): action = .added
        case (_, nil): action = .removed
        case (let a?, let b?): action = b > a ? .raised : .lowered
        }
        report(.bound(keyword, action), path, "\(keyword.rawValue) \(o.text(keyword.rawValue) ?? "none") to \(n.text(keyword.rawValue) ?? "none")", o.side(keyword.rawValue), n.side(keyword.rawValue))
    }

    private mutating func compareMultipleOf(_ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.number("multipleOf"), n.number("multipleOf"))
        guard before != after else { return }
        let concept: SchemaConcept
        switch (before, after) {
        case (nil, _): concept = .multipleOfAdded
        case (_, nil): concept = .multipleOfRemoved
        case (let a?, let b?): concept = Self.divides(b, a) ? .multipleOfWidened : Self.divides(a, b) ? .multipleOfNarrowed : .multipleOfChanged
        }
        report(concept, path, "multipleOf \(o.text("multipleOf") ?? "none") to \(n.text("multipleOf") ?? "none")", o.side("multipleOf"), n.side("multipleOf"))
    }

    /// Whether every multiple of `b` is a multiple of `a`.
    private static func divides(_ a: Double, _ b: Double) -> Bool {
        guard a > 0 else { return false }
        let ratio = b / a
        return abs(ratio - ratio.rounded()) < 1e-9
    }

    private mutating func compareFlag(_ keyword: String, added: SchemaConcept, removed: SchemaConcept, _ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.value(keyword) == .bool(true), n.value(keyword) == .bool(true))
        guard before != after else { return }
        report(after ? added : removed, path, "\(keyword) \(before) to \(after)", o.side(keyword), n.side(keyword))
    }

    private mutating func comparePattern(_ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.string("pattern"), n.string("pattern"))
        guard before != after else { return }
        let concept: SchemaConcept = before == nil ? .patternAdded : after == nil ? .patternRemoved : .patternChanged
        report(concept, path, "pattern \(o.text("pattern") ?? "none") to \(n.text("pattern") ?? "none")", o.side("pattern"), n.side("pattern"))
    }

    // MARK: Objects and arrays

    private mutating func compareObjects(_ o: Flat, _ n: Flat, _ path: [String], _ depth: Int) {
        let (oldProperties, newProperties) = (o.object("properties") ?? JSONObject(), n.object("properties") ?? JSONObject())
        let (oldRequired, newRequired) = (o.strings("required"), n.strings("required"))
        let (oldClosed, newClosed) = (o.value("additionalProperties") == .bool(false), n.value("additionalProperties") == .bool(false))
        for name in newRequired.subtracting(oldRequired).sorted() {
            let existed = oldProperties[name] != nil
            report(existed ? .propertyBecameRequired : .requiredPropertyAdded, path + [name],
                existed ? "'\(name)' is required now" : "new required property '\(name)'", o.side("required"), n.side("required"))
        }
        for name in oldRequired.subtracting(newRequired).sorted() {
            let stays = newProperties[name] != nil || (!newClosed && oldProperties[name] == nil)
            report(stays ? .propertyBecameOptional : .requiredPropertyRemoved, path + [name],
                stays ? "'\(name)' is optional now" : "required property '\(name)' taken out" + Self.renameHint(name, oldProperties, newProperties),
                o.side("required"), n.side("required"))
        }
        for member in oldProperties.members {
            let name = member.key
            let oldPlace = o.childPlace("properties", name)
            if let newValue = newProperties[name] {
                compare(Flat(member.value, at: oldPlace, in: old), Flat(newValue, at: n.childPlace("properties", name), in: new), path: path + [name], depth: depth + 1)
            } else if !oldRequired.contains(name) {
                let concept: SchemaConcept = newClosed ? .propertyRemovedFromClosedObject : .propertyRemoved
                report(concept, path + [name], "optional property '\(name)' taken out" + Self.renameHint(name, oldProperties, newProperties), old.side(TreeView.shown(member.value), file: oldPlace.file, pointer: oldPlace.pointer), n.side("properties"))
            }
        }
        for member in newProperties.members where oldProperties[member.key] == nil && !newRequired.contains(member.key) {
            let newPlace = n.childPlace("properties", member.key)
            report(oldClosed ? .propertyAddedToClosedObject : .propertyAdded, path + [member.key], "new optional property '\(member.key)'",
                o.side("properties"), new.side(TreeView.shown(member.value), file: newPlace.file, pointer: newPlace.pointer))
        }
        if oldClosed != newClosed {
            report(newClosed ? .additionalPropertiesClosed : .additionalPropertiesOpened, path,
                newClosed ? "no member but the listed properties is allowed now" : "members besides the listed properties are allowed now",
                o.side("additionalProperties"), n.side("additionalProperties"))
        } else {
            switch (o.value("additionalProperties"), n.value("additionalProperties")) {
            case (let before?, let after?) where before.objectValue != nil || after.objectValue != nil:
                compare(Flat(before, at: o.childPlace("additionalProperties"), in: old), Flat(after, at: n.childPlace("additionalProperties"), in: new), path: path + ["*"], depth: depth + 1)
            case (nil, .object?), (.bool(true)?, .object?):
                report(.keywordAdded, path + ["*"], "a schema for the other members added (additionalProperties)", o.side("additionalProperties"), n.side("additionalProperties"))
            case (.object?, nil), (.object?, .bool(true)?):
                report(.keywordRemoved, path + ["*"], "the schema for the other members taken out (additionalProperties)", o.side("additionalProperties"), n.side("additionalProperties"))
            default:
                break
            }
        }
    }

    private mutating func compareArrays(_ o: Flat, _ n: Flat, _ path: [String], _ depth: Int) {
        if let before = o.value("items"), let after = n.value("items"), before.arrayValue == nil, after.arrayValue == nil {
            compare(Flat(before, at: o.childPlace("items"), in: old), Flat(after, at: n.childPlace("items"), in: new), path: path + ["*"], depth: depth + 1)
        } else if o.value("items") != n.value("items") {
            compareOpaque("items", o, n, path)
        }
        let (before, after) = (o.array("prefixItems") ?? [], n.array("prefixItems") ?? [])
        for index in 0..<min(before.count, after.count) {
            compare(Flat(before[index], at: o.childPlace("prefixItems", String(index)), in: old),
                Flat(after[index], at: n.childPlace("prefixItems", String(index)), in: new), path: path + [String(index)], depth: depth + 1)
        }
        if before.count != after.count { compareOpaque("prefixItems", o, n, path) }
    }

    /// Branches are paired by their text first (a branch kept as it was is no change, wherever it
    /// moved), then the rest in order when as many are left on both sides; what is left over was
    /// added or taken out.
    private mutating func compareCombination(_ keyword: CombinationKeyword, _ o: Flat, _ n: Flat, _ path: [String], _ depth: Int) {
        let name = keyword.rawValue
        let (before, after) = (o.array(name), n.array(name))
        guard before != after else { return }
        guard let before, let after else {
            let concept = SchemaConcept(id: "\(keyword.ruleName)-\(before == nil ? "added" : "removed")", effect: before == nil ? .narrowed : .widened, summary: "")
            report(concept, path, "\(name) \(before == nil ? "added" : "taken out")", o.side(name), n.side(name))
            return
        }
        var unmatchedOld = Array(before.indices)
        var unmatchedNew: [Int] = []
        for (index, branch) in after.enumerated() {
            if let match = unmatchedOld.firstIndex(where: { before[$0] == branch }) {
                unmatchedOld.remove(at: match)
            } else {
                unmatchedNew.append(index)
            }
        }
        if unmatchedOld.count == unmatchedNew.count {
            for (a, b) in zip(unmatchedOld, unmatchedNew) {
                compare(Flat(before[a], at: o.childPlace(name, String(a)), in: old), Flat(after[b], at: n.childPlace(name, String(b)), in: new), path: path, depth: depth + 1)
            }
            return
        }
        if unmatchedNew.count > unmatchedOld.count {
            report(.branches(keyword, added: true), path, "\(name) has \(after.count) \(keyword == .allOf ? "parts" : "branches") now, not \(before.count)", o.side(name), n.side(name))
        } else {
            report(.branches(keyword, added: false), path, "\(name) has \(after.count) \(keyword == .allOf ? "parts" : "branches") now, not \(before.count)", o.side(name), n.side(name))
        }
    }

    /// `; renamed 'created_at'?` when a property new on this side has exactly the schema the
    /// removed one had: what a reviewer suspects at once, said, while the change keeps its rule
    /// (clients reading the old name fail all the same).
    static func renameHint(_ name: String, _ before: JSONObject, _ after: JSONObject) -> String {
        guard let schema = before[name] else { return "" }
        let candidates = after.members.filter { before[$0.key] == nil && $0.value == schema }.map(\.key)
        guard candidates.count == 1, let renamed = candidates.first else { return "" }
        return "; renamed '\(renamed)'?"
    }

    /// Keywords compared by their text only.
    static let opaqueKeywords = [
        "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties", "propertyNames", "contains",
        "unevaluatedProperties", "unevaluatedItems", "contentMediaType", "contentEncoding", "dependencies", "additionalItems",
    ]

    private mutating func compareOpaque(_ keyword: String, _ o: Flat, _ n: Flat, _ path: [String]) {
        let (before, after) = (o.value(keyword), n.value(keyword))
        guard before != after else { return }
        let concept: SchemaConcept = before == nil ? .keywordAdded : after == nil ? .keywordRemoved : .keywordChanged
        report(concept, path, "\(keyword) \(before == nil ? "added" : after == nil ? "taken out" : "changed")", o.side(keyword), n.side(keyword))
    }

    // MARK: Findings

    private mutating func report(_ concept: SchemaConcept, _ path: [String], _ message: String, _ oldSide: Change.Side?, _ newSide: Change.Side?) {
        let shown = "/" + path.map { $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined(separator: "/")
        findings.append(SchemaFinding(concept: concept, path: shown, message: message, old: oldSide, new: newSide))
    }

    private static func list(_ values: [JSONValue]) -> String {
        values.prefix(5).map(TreeView.shown).joined(separator: ", ") + (values.count > 5 ? " and \(values.count - 5) more" : "")
    }
}
