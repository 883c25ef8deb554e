import ContractJSON
import ContractModel

/// Items a path names by their own name and the names of items they refer to.
extension ResourceSetup {
    /// The members a path names an item by, as a literal segment before the value
    /// (`/flows/name/{name}`) or the end of a placeholder's name (`{flow_name}`).
    static let namingMembers = ["name", "slug", "key"]

    /// An item named by its own name and by the names of the items its create refers to:
    /// `/deployments/name/{flow_name}/{deployment_name}` (a deployment's create names its flow by
    /// `flow_id`), `/block_types/slug/{slug}/block_documents/name/{block_document_name}` (a block
    /// document's names its block type by `block_type_id`). The item's create is made with a unique
    /// name, what its body refers to made before it (`referencedSteps`), and each other
    /// placeholder reads the name the referred item was made with. Nil unless every made-up
    /// placeholder of the path is filled so.
    func namedByNames(
        segments: [String], at last: Int, placeholder: String, needed: Set<String>, _ plan: CasePlan, _ context: Context, level: Int,
        visiting: Set<String>
    ) -> [String: String]? {
        // The literal naming member before the run of placeholders that ends the path here.
        guard let literal = segments[..<last].lastIndex(where: { Self.placeholder(in: $0) == nil }), literal >= 2,
            Self.namingMembers.contains(segments[literal]), segments[(literal + 1)...last].allSatisfy({ Self.placeholder(in: $0) != nil })
        else { return nil }
        let member = segments[literal]
        let collection = segments[..<literal].joined(separator: "/")
        let creators = context.creators
        guard let creator = creators.posts[Self.shape(collection)]
            ?? creators.byResource[Self.resourceName(collection).lowercased()].flatMap({ creators.posts[$0] }),
            !creator.path.contains("{")
        else { return nil }
        // What each other placeholder names: a referred item's resource and member.
        var others: [(placeholder: String, resource: String, member: String)] = []
        for (index, segment) in segments.enumerated() where index != last {
            guard let other = Self.placeholder(in: segment), needed.contains(other) else { continue }
            if index > literal {
                guard let named = Self.namingMembers.first(where: { other.hasSuffix("_" + $0) }) else { return nil }
                others.append((other, String(other.dropLast(named.count + 1)), named))
            } else if index >= 2, Self.namingMembers.contains(segments[index - 1]), Self.placeholder(in: segments[index - 2]) == nil {
                others.append((other, Self.resourceName(segments[..<(index - 1)].joined(separator: "/")).lowercased(), segments[index - 1]))
            } else {
                return nil
            }
        }
        guard !others.isEmpty else { return nil }
        let key = "names:\(Self.shape(creator.path)):\(placeholder)"
        guard !visiting.contains(key) else { return nil }
        let resource = Self.resourceName(creator.path).lowercased()
        let snapshot = plan.snapshot()
        var body = creator.successCase["request"]?.objectValue?["body"]?.objectValue ?? JSONObject()
        if !(body[member]?.stringValue?.contains("${unique:") ?? false) {
            let variable = plan.newUnique(Identifiers.placeholder(resource + "_" + member), resource: resource)
            guard let schema = bodyMember(member, of: creator.contract), let value = UniqueMembers.uniqueValue("", schema: schema, variable: variable) else {
                plan.restore(snapshot)
                return nil
            }
            body[member] = .string(value)
        }
        body = referencedSteps(in: body, plan, context, level: level + 1, visiting: visiting.union([key])).body
        var values: [String: String] = [:]
        values[placeholder] = body[member]?.stringValue
        for other in others {
            guard let reference = body.members.first(where: { Self.referencedResource($0.key) == other.resource })?.value.stringValue,
                let sent = plan.sentValue(other.member, byStepCapturing: reference)
            else {
                plan.restore(snapshot)
                return nil
            }
            values[other.placeholder] = sent
        }
        var request = Self.stepRequest(from: creator.contract, case: creator.successCase)
        request["body"] = .object(body)
        var step = JSONObject()
        step["request"] = .object(request)
        let name = Identifiers.placeholder(Identifiers.fileSafe(resource))
        // The item's id, for the teardown that deletes it.
        var removal: JSONObject?
        if let idPointer = creator.idPointer(for: resource + "_id") {
            let variable = plan.newCapture(Identifiers.placeholder(resource + "_id"), resource: name)
            step["capture"] = .object(JSONObject([JSONObject.Member(key: variable, value: .string(idPointer))]))
            let itemPath = Self.itemPath(in: creator.path, "contract_item_id")
            removal = deleteStep(for: itemPath, values: ["contract_item_id": "${capture:\(variable)}"], creators: creators)
        }
        plan.add(step, verb: "create", resource: name)
        if let removal { plan.addRemoval(removal, resource: name) }
        return values
    }
}
