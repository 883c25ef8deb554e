import ContractJSON
import ContractModel

/// Items no operation creates on their own, made as a part of another: the state a run is
/// created in, the lease an increment grants.
extension ResourceSetup {
    /// An item made with its owner (`/flow_run_states/{id}`: every flow run is created with a
    /// state, and its answer names it, `state_id`): the owner is made (and deleted after, which
    /// removes what it owns) and its answer's `<part>_id` captured. The owner is the longest
    /// leading part of the item's name that a `POST` makes (`flow_run` of `flow_run_state`).
    func madeWithOwner(
        collection: String, placeholder: String, _ plan: CasePlan, _ context: Context, level: Int, visiting: Set<String>
    ) -> [String: String]? {
        guard !collection.contains("{") else { return nil }
        let parts = Self.resourceName(collection).lowercased().split(separator: "_").map(String.init)
        guard parts.count > 1 else { return nil }
        for split in stride(from: parts.count - 1, to: 0, by: -1) {
            let owner = parts[..<split].joined(separator: "_")
            let member = parts[split...].joined(separator: "_") + "_id"
            guard let shape = context.creators.byResource[owner], let post = context.creators.posts[shape], !post.path.contains("{"),
                post.answer.contains(member)
            else { continue }
            let snapshot = plan.snapshot()
            let ownerPlaceholder = Identifiers.placeholder(owner + "_id")
            let ownerPath = post.path + (post.path.hasSuffix("/") ? "" : "/") + "{\(ownerPlaceholder)}"
            let variable = plan.newCapture(Identifiers.placeholder(parts.joined(separator: "_") + "_id"), resource: owner)
            guard let made = make(ownerPath, needed: [ownerPlaceholder], plan, context, level: level + 1, visiting: visiting),
                let ownerValue = made[ownerPlaceholder], plan.addCapture(variable, pointer: "/" + member, toStepCapturing: ownerValue)
            else {
                plan.restore(snapshot)
                continue
            }
            return [placeholder: "${capture:\(variable)}"]
        }
        return nil
    }

    /// An item only one operation's answer names by the placeholder's own name (`lease_id`, which
    /// `POST /v2/concurrency_limits/increment-with-lease` answers): that operation's request, as
    /// its own success case sends it, made first and the name captured. Only an id-like name
    /// (`<thing>_id`) answered by exactly one operation: `id` alone names anything.
    func answeredElsewhere(
        placeholder: String, _ plan: CasePlan, _ context: Context, level: Int, visiting: Set<String>
    ) -> [String: String]? {
        guard let resource = Self.referencedResource(placeholder) else { return nil }
        let answering = context.creators.posts.values.filter { $0.answer.contains(placeholder) && !$0.path.contains("{") }
        guard answering.count == 1, let creator = answering.first else { return nil }
        let key = "answer:\(Self.shape(creator.path)):\(placeholder)"
        guard !visiting.contains(key) else { return nil }
        if let value = plan.value(madeBy: key) { return [placeholder: value] }
        var request = Self.stepRequest(from: creator.contract, case: creator.successCase)
        if case .object(let body)? = request["body"] {
            request["body"] = .object(referencedSteps(in: body, plan, context, level: level + 1, visiting: visiting.union([key])).body)
        }
        let variable = plan.newCapture(placeholder, resource: Identifiers.placeholder(resource))
        var step = JSONObject()
        step["request"] = .object(request)
        step["capture"] = .object(JSONObject([JSONObject.Member(key: variable, value: .string("/" + placeholder))]))
        plan.add(step, verb: "get", resource: Identifiers.placeholder(resource))
        let value = "${capture:\(variable)}"
        plan.record(value, madeBy: key)
        return [placeholder: value]
    }
}
