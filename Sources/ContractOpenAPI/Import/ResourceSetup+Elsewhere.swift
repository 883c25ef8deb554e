import ContractJSON
import ContractModel

/// Items no operation creates on their own, made as a part of another or by a call that is not a
/// create: the state a run is created in, the lease an increment grants, the worker a heartbeat
/// registers.
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
            // An owner whose create sends the member only answers back what it was sent (a user
            // created with a `group_id` the import made up): it makes nothing of that name.
            guard let shape = context.creators.byResource[owner], let post = context.creators.posts[shape], !post.path.contains("{"),
                post.answer.contains(member), !sends(member, post.contract)
            else { continue }
            let snapshot = plan.snapshot()
            let ownerPlaceholder = Identifiers.placeholder(owner + "_id")
            let ownerPath = Self.itemPath(in: post.path, ownerPlaceholder)
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
        // An operation that is sent the id answers it back (`POST /v2/webhooks` with a `team_id`,
        // `POST /extractions` with a `document_id`): the value is the made-up one it was sent, and
        // the call makes something else (a webhook) that nothing deletes.
        let answering = context.creators.posts.values.filter {
            $0.answer.contains(placeholder) && !$0.path.contains("{") && !sends(placeholder, $0.contract)
        }
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

    /// Whether the operation's request carries `member`: a member its JSON body declares, or a
    /// parameter of that name.
    func sends(_ member: String, _ contract: ImportedContract) -> Bool {
        if bodyMember(member, of: contract) != nil { return true }
        let parameters = contract.value["request"]?.objectValue?["parameters"]?.objectValue ?? JSONObject()
        return parameters.members.contains { $0.value.objectValue?[member] != nil }
    }

    /// An item a call below its collection registers under a name the client sends
    /// (`POST /work_pools/{name}/workers/heartbeat` with `{"name": …}`, then
    /// `/work_pools/{work_pool_name}/workers/{name}`): the call is made first with a unique name,
    /// its parents before it, and the item deleted after by that name. Only a call whose body
    /// requires the member, for an item the document deletes: a search that may take one makes
    /// nothing.
    func registered(
        segments: [String], at last: Int, placeholder: String, _ plan: CasePlan, _ context: Context, level: Int, visiting: Set<String>
    ) -> [String: String]? {
        let collection = segments[..<last].joined(separator: "/")
        // Only an item the document deletes: a call that requires a name but makes nothing of it
        // (`POST /pets/{id}/tags/revoke` with a `tag`) would otherwise pass for a registration,
        // and a registered item nothing deletes would be left behind by every run.
        guard context.creators.deletes[Self.shape(segments[...last].joined(separator: "/"))] != nil else { return nil }
        let candidates = (context.creators.registrars[Self.shape(collection)] ?? []).sorted { $0.id < $1.id }
        for contract in candidates {
            guard let successCase = Self.successCase(of: contract), let schema = bodyMember(placeholder, of: contract, required: true),
                case .object(var body)? = successCase["request"]?.objectValue?["body"] ?? .object(JSONObject())
            else { continue }
            let key = "register:\(contract.id):\(placeholder)"
            guard !visiting.contains(key) else { continue }
            let resource = Self.resourceName(collection).lowercased()
            let snapshot = plan.snapshot()
            let variable = plan.newUnique(Identifiers.placeholder(resource + "_" + placeholder), resource: resource)
            let sent: String
            if let value = body[placeholder]?.stringValue, value.contains("${unique:") {
                sent = value
            } else if let value = UniqueMembers.uniqueValue("", schema: schema, variable: variable) {
                sent = value
            } else {
                plan.restore(snapshot)
                continue
            }
            body[placeholder] = .string(sent)
            let creator = Creator(kind: .post, contract: contract, successCase: successCase)
            guard let (parentValues, renamed) = makeParents(of: creator, except: nil, for: collection, plan, context, level: level, visiting: visiting.union([key])) else {
                plan.restore(snapshot)
                continue
            }
            var request = Self.stepRequest(from: contract, case: successCase, pathValues: parentValues)
            request["body"] = .object(referencedSteps(in: body, plan, context, level: level + 1, visiting: visiting.union([key])).body)
            var step = JSONObject()
            step["request"] = .object(request)
            let name = Identifiers.placeholder(Identifiers.fileSafe(resource))
            plan.add(step, verb: "register", resource: name)
            var values = renamed
            values[placeholder] = sent
            if let removal = deleteStep(for: segments[...last].joined(separator: "/"), values: values, creators: context.creators) {
                plan.addRemoval(removal, resource: name)
            }
            return values
        }
        return nil
    }
}
