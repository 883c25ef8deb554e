import ContractJSON

/// The steps one case needs, built in the order they run: every item made once (a block
/// document's `block_type_id` and its block schema's name one block type), every capture and
/// unique value under a name of its own (a user's `id` and its post's `id` are two), and the
/// teardown that deletes each item written in reverse order of making, so what refers to another
/// item is deleted before it.
final class CasePlan {
    private(set) var steps: [JSONObject] = []
    /// In the order the items were made; the case's teardown is this reversed.
    private(set) var removals: [JSONObject] = []
    /// The value that names each item made, by what made it (a creator's path shape).
    private var made: [String: String] = [:]
    private var captures: Set<String> = []
    private var uniques: Set<String> = []
    /// Items the case's planning tried to make, made or not: kept across `restore`, for it bounds
    /// the work, not the plan.
    private var attempts = 0

    struct Snapshot {
        fileprivate var steps: [JSONObject]
        fileprivate var removals: [JSONObject]
        fileprivate var made: [String: String]
        fileprivate var captures: Set<String>
        fileprivate var uniques: Set<String>
    }

    /// What to go back to when making an item fails half way: no step of it stays.
    func snapshot() -> Snapshot {
        Snapshot(steps: steps, removals: removals, made: made, captures: captures, uniques: uniques)
    }

    func restore(_ snapshot: Snapshot) {
        steps = snapshot.steps
        removals = snapshot.removals
        made = snapshot.made
        captures = snapshot.captures
        uniques = snapshot.uniques
    }

    /// Counts an attempt to make an item; false once the case has tried `limit`. Every rule tries
    /// its alternatives in turn and a failure is not remembered, so a document whose alternatives
    /// all fail one level down (registrars under registrars) would be tried in every combination,
    /// the count of alternatives to the power of the levels: an import of a few dozen operations
    /// that never ends. Past the limit the case keeps its made-up values, the same in every import.
    func attempt(limit: Int) -> Bool {
        SetupWork.current?.addAttempt()
        attempts += 1
        return attempts <= limit
    }

    /// The value naming the item `key` made earlier in the case, if any.
    func value(madeBy key: String) -> String? {
        made[key]
    }

    func record(_ value: String, madeBy key: String) {
        made[key] = value
    }

    /// A capture variable no other step of the case uses: `base`, else `resource_base`, else
    /// numbered.
    func newCapture(_ base: String, resource: String) -> String {
        Self.fresh(base, resource: resource, taken: &captures)
    }

    /// The same for `${unique:…}` names.
    func newUnique(_ base: String, resource: String) -> String {
        Self.fresh(base, resource: resource, taken: &uniques)
    }

    /// Adds a capture to the step that captured `value` (`${capture:flow_run_id}`): what else its
    /// answer names (the flow run's `state_id`). False when no step captured it.
    func addCapture(_ variable: String, pointer: String, toStepCapturing value: String) -> Bool {
        guard value.hasPrefix("${capture:"), value.hasSuffix("}") else { return false }
        let name = String(value.dropFirst("${capture:".count).dropLast())
        guard let index = steps.firstIndex(where: { $0["capture"]?.objectValue?[name] != nil }),
            case .object(var captures)? = steps[index]["capture"]
        else { return false }
        captures[variable] = .string(pointer)
        steps[index]["capture"] = .object(captures)
        return true
    }

    /// The text the step that captured `value` sent as its body's `member` (the name a flow was
    /// made with, for a path that names the flow by it).
    func sentValue(_ member: String, byStepCapturing value: String) -> String? {
        guard value.hasPrefix("${capture:"), value.hasSuffix("}") else { return nil }
        let name = String(value.dropFirst("${capture:".count).dropLast())
        return steps.first { $0["capture"]?.objectValue?[name] != nil }?["request"]?.objectValue?["body"]?.objectValue?[member]?.stringValue
    }

    /// Appends a step, named `verb-resource` (numbered when the case has one of that name).
    func add(_ step: JSONObject, verb: String, resource: String) {
        steps.append(Self.named(step, Self.name(verb, resource, taken: steps)))
    }

    func addRemoval(_ step: JSONObject, resource: String) {
        removals.append(Self.named(step, Self.name("delete", resource, taken: removals)))
    }

    /// The step with its name first, as a person reads it: name, request, capture.
    private static func named(_ step: JSONObject, _ name: String) -> JSONObject {
        var named = JSONObject()
        named["name"] = .string(name)
        for key in ["request", "capture"] { if let value = step[key] { named[key] = value } }
        for member in step where named[member.key] == nil { named[member.key] = member.value }
        return named
    }

    /// The teardown, children first.
    var teardown: [JSONObject] { removals.reversed() }

    private static func fresh(_ base: String, resource: String, taken: inout Set<String>) -> String {
        var name = base
        if taken.contains(name) { name = resource + "_" + base }
        var number = 2
        let stem = name
        while taken.contains(name) {
            name = "\(stem)_\(number)"
            number += 1
        }
        taken.insert(name)
        return name
    }

    private static func name(_ verb: String, _ resource: String, taken: [JSONObject]) -> String {
        let base = verb + "-" + resource
        var name = base
        var number = 2
        while taken.contains(where: { $0["name"] == .string(name) }) {
            name = "\(base)-\(number)"
            number += 1
        }
        return name
    }
}
