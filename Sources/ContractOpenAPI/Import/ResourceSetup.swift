import ContractJSON
import ContractModel

/// Setup steps that create what a case works on, and teardown steps that remove it, so each case
/// stands on its own and a nightly run leaves nothing behind.
///
/// A case for `GET /items/{item_id}` whose id the import had to make up would ask for an item the
/// server does not have, and a `DELETE` of the same made-up id would race it. Where the document
/// shows how to make one, the success cases of the item's operations (and its `no-credentials`
/// case, which a server may refuse with 404 for a parent that does not exist) first make it:
/// - a `POST` on the collection (`/items`) whose success response has the id: the step sends the
///   request its own contract's success case sends and captures the id from the answer,
///   `"item_id": "${capture:item_id}"`;
/// - else a `PUT` on the item (`/buckets/{id}`: the client chooses the id): the step puts it at
///   `${unique:bucket_id}`, a value new to the server in every run, and the case uses the same.
/// A collection below another item (`/users/{user_id}/posts`) gets the user made first, the same
/// way. A body member that names another resource by id (`"flow_id"` where `POST /flows` makes
/// flows) gets that resource made first, and the member reads the capture. Where the document has
/// a `DELETE` on the item, a teardown step removes each item made, children first; a `POST` case
/// that creates an item captures its id from its own answer and removes it too. Values the
/// document or the user gives (`--value`) are kept: they name something real.
struct ResourceSetup {
    let document: OpenAPIDocument
    /// Parent items made before this many levels are not made (far beyond real APIs).
    static let maximumLevels = 6
    /// Items one case may try to make, made or not (`CasePlan.attempt`).
    static let maximumAttempts = 500

    /// A way to make an item: the collection's `POST` contract and where its answer holds the id,
    /// or the item's `PUT` contract.
    struct Creator {
        enum Kind {
            case post
            case put
        }

        var kind: Kind
        var contract: ImportedContract
        var successCase: JSONObject
        /// The answer's property names, and a wrapper's (`data`, `result`, `item`, or `0`: the first
        /// item of a list) when it has one.
        var answer: [String] = []
        var wrapped: (wrapper: String, names: [String])?

        var path: String { contract.value["request"]?.objectValue?["path"]?.stringValue ?? "" }

        /// Where the answer holds the id that fills `placeholder`: `/id`, `/item_id`, `/data/id`,
        /// and last `/name` (a terminal, a kernel spec: named, not numbered).
        func idPointer(for placeholder: String) -> String? {
            // A path that names the item by its name (`/work_pools/{work_pool_name}`) takes the name.
            let named = ["name", "slug", "key"].filter { placeholder.lowercased().hasSuffix($0) }
            let candidates = [placeholder] + named + ["id", "uuid", "ID", "Id", "_id", "slug", "name"]
            if let name = candidates.first(where: answer.contains) { return "/" + name }
            if let wrapped, let name = candidates.first(where: wrapped.names.contains) { return "/\(wrapped.wrapper)/\(name)" }
            return nil
        }
    }

    struct Creators {
        var posts: [String: Creator] = [:]  // by collection shape, placeholders as `{}`
        var puts: [String: Creator] = [:]  // by item shape
        var deletes: [String: ImportedContract] = [:]  // by item shape
        /// `POST` creators by the singular name of their collection (`flow` for `/flows/`), for
        /// body members that name one (`flow_id`).
        var byResource: [String: String] = [:]
        /// `POST`s on a word below a collection (`/work_pools/{}/workers/heartbeat`), by the
        /// collection's shape: one may register an item the client names.
        var registrars: [String: [ImportedContract]] = [:]
    }

    /// Adds setup and teardown steps to `contracts` in place. Returns, by `contract-id/case`, the
    /// made-up path parameters the steps now provide, and the body members they now fill as
    /// `body:NAME`.
    func addSteps(to contracts: inout [ImportedContract], madeUp: [MadeUpValue]) -> [String: Set<String>] {
        let madeUpPaths = Self.madeUpPathParameters(madeUp)
        let creators = self.creators(of: contracts)
        let context = Context(creators: creators, madeUpPaths: madeUpPaths)
        var resolved: [String: Set<String>] = [:]
        for index in contracts.indices {
            guard let path = contracts[index].value["request"]?.objectValue?["path"]?.stringValue,
                let method = contracts[index].value["request"]?.objectValue?["method"]?.stringValue,
                case .array(var cases)? = contracts[index].value["cases"]
            else { continue }
            for caseIndex in cases.indices {
                guard case .object(var testCase) = cases[caseIndex], Self.isSuccess(testCase) || Self.isWithoutCredentials(testCase),
                    let name = testCase["name"]?.stringValue, testCase["setup"] == nil
                else { continue }
                let key = "\(contracts[index].id)/\(name)"
                var made = madeUpPaths[key] ?? []
                let plan = CasePlan()
                var request = testCase["request"]?.objectValue ?? JSONObject()
                // What the case's body names is made first, so it is deleted last: the case's own
                // request may make the path's item refer to it.
                var replaced: Set<String> = []
                if Self.isSuccess(testCase), case .object(let body)? = request["body"] {
                    let references = referencedSteps(in: body, plan, context, level: 0, visiting: [])
                    replaced = Set(references.replaced.map { "body:" + $0 })
                    request["body"] = .object(references.body)
                }
                // A `PUT` that makes the item it names makes its own: only its parents come first.
                let last = path.split(separator: "/").last.flatMap { Self.placeholder(in: String($0)) }
                let putsItself = method == "PUT" && creators.puts[Self.shape(path)]?.contract.id == contracts[index].id && last.map(made.contains) == true
                if putsItself, let last { made.remove(last) }
                var values: [String: String] = [:]
                if !made.isEmpty {
                    guard let madeValues = make(path, needed: made, plan, context, level: 0, visiting: []) else { continue }
                    values = madeValues
                }
                if putsItself, let last {
                    let variable = plan.newUnique(Identifiers.placeholder(last), resource: Self.resource(path))
                    values[last] = "${unique:\(variable)}"
                    made.insert(last)
                    if let remove = deleteStep(for: path, values: values, creators: creators) { plan.addRemoval(remove, resource: Self.resource(path)) }
                }
                // A unique value where the case's own parameter takes none (an account id of 32 hex
                // digits that another operation's PUT names freely): the case stays as it was.
                guard values.allSatisfy({ placeholder, value in
                    !made.contains(placeholder) || !value.contains("${unique:") || takesUniqueValue(contracts[index], placeholder: placeholder, value: value)
                }) else { continue }
                var pathParams = request["pathParams"]?.objectValue ?? JSONObject()
                for (placeholder, value) in values where made.contains(placeholder) { pathParams[placeholder] = .string(value) }
                if !pathParams.isEmpty { request["pathParams"] = .object(pathParams) }
                if !request.isEmpty { testCase["request"] = .object(request) }
                // What a successful `POST` case creates is removed after it (a `PUT` on a collection
                // that creates as a `POST` does too).
                if method == "POST" || method == "PUT" && !path.hasSuffix("}"), Self.isSuccess(testCase), let creator = creators.posts[Self.shape(path)], creator.contract.id == contracts[index].id,
                    let own = ownTeardown(of: creator, path: path, pathParams: pathParams, plan, creators: creators)
                {
                    testCase["capture"] = .object(JSONObject([JSONObject.Member(key: own.capture, value: .string(own.pointer))]))
                    plan.addRemoval(own.step, resource: Self.resource(path))
                }
                guard !plan.steps.isEmpty || !plan.removals.isEmpty else { continue }
                if !plan.steps.isEmpty { testCase["setup"] = .array(plan.steps.map(JSONValue.object)) }
                if !plan.removals.isEmpty { testCase["teardown"] = .array(plan.teardown.map(JSONValue.object)) }
                // `setup` reads best before the request it prepares.
                cases[caseIndex] = .object(Self.reordered(testCase))
                resolved[key] = Set(values.keys).intersection(made).union(replaced)
            }
            contracts[index].value["cases"] = .array(cases)
        }
        return resolved
    }

    /// What every case's planning reads.
    struct Context {
        var creators: Creators
        var madeUpPaths: [String: Set<String>]
    }

    /// Which operations make, and delete, which items.
    private func creators(of contracts: [ImportedContract]) -> Creators {
        var creators = Creators()
        // `POST`s first: a collection's `PUT` makes its items only where no `POST` does.
        let ordered = contracts.filter { $0.value["request"]?.objectValue?["method"]?.stringValue == "POST" }
            + contracts.filter { $0.value["request"]?.objectValue?["method"]?.stringValue != "POST" }
        for contract in ordered {
            guard let request = contract.value["request"]?.objectValue, let path = request["path"]?.stringValue,
                let method = request["method"]?.stringValue
            else { continue }
            switch method {
            case "POST":
                let segments = path.split(separator: "/")
                if segments.count >= 2, let word = segments.last, !word.hasPrefix("{") {
                    creators.registrars[Self.shape("/" + segments.dropLast().joined(separator: "/")), default: []].append(contract)
                }
                guard let successCase = Self.successCase(of: contract), creators.posts[Self.shape(path)] == nil,
                    let (answer, wrapped) = answerNames(of: contract)
                else { continue }
                // Whether its answer names the item is asked for each placeholder it would fill.
                creators.posts[Self.shape(path)] = Creator(kind: .post, contract: contract, successCase: successCase, answer: answer, wrapped: wrapped)
                let resource = Self.resourceName(path).lowercased()
                if creators.byResource[resource] == nil || !path.contains("{") { creators.byResource[resource] = Self.shape(path) }
            case "PUT":
                guard let successCase = Self.successCase(of: contract) else { continue }
                if path.hasSuffix("}") {
                    // Only where the client may name the item: its id takes a unique value (an
                    // integer id, or one of a fixed shape, is the server's to give: a PUT on it updates).
                    if creators.puts[Self.shape(path)] == nil, let last = path.split(separator: "/").last.flatMap({ Self.placeholder(in: String($0)) }),
                        takesUniqueValue(contract, placeholder: last)
                    {
                        creators.puts[Self.shape(path)] = Creator(kind: .put, contract: contract, successCase: successCase)
                    }
                } else if creators.posts[Self.shape(path)] == nil, let (answer, wrapped) = answerNames(of: contract) {
                    // `PUT /saved_searches/` makes one and answers its id, as a `POST` would.
                    creators.posts[Self.shape(path)] = Creator(kind: .post, contract: contract, successCase: successCase, answer: answer, wrapped: wrapped)
                }
            case "DELETE":
                guard path.hasSuffix("}"), creators.deletes[Self.shape(path)] == nil else { continue }
                creators.deletes[Self.shape(path)] = contract
            default:
                continue
            }
        }
        // Where a `POST` makes the collection's items and answers their ids, a `PUT` on one updates it.
        creators.puts = creators.puts.filter { shape, _ in
            let collection = shape.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            return creators.posts[Self.shape(collection)]?.idPointer(for: "") == nil
        }
        return creators
    }

    /// Makes every item `path` names up to its deepest placeholder in `needed`, parents first,
    /// adding the steps to `plan`. The value of each placeholder made, by the path's own names;
    /// nil, with the plan as it was, when an item cannot be made.
    func make(
        _ path: String, needed: Set<String>, _ plan: CasePlan, _ context: Context, level: Int, visiting: Set<String>
    ) -> [String: String]? {
        guard level < Self.maximumLevels, plan.attempt(limit: Self.maximumAttempts) else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // The deepest placeholder segment that must be made: `/items/{item_id}` → `/items` makes it.
        guard let last = segments.lastIndex(where: { Self.placeholder(in: $0).map(needed.contains) == true }),
            let placeholder = Self.placeholder(in: segments[last])
        else { return [:] }
        let collection = segments[..<last].joined(separator: "/")
        let itemPath = segments[...last].joined(separator: "/")
        let creators = context.creators
        let creator: Creator
        var idPointer: String?
        // Where the item made is deleted: its own path, unless it is made elsewhere.
        var madePath = itemPath
        if let post = creators.posts[Self.shape(collection)], let pointer = post.idPointer(for: placeholder) {
            // The path names the item by a member the client chooses (`/artifacts/{key}/latest`,
            // `key` optional in the create): sent, rather than captured as the `null` of an item
            // made without it, and the item deleted by its id.
            if let member = pointer.split(separator: "/").last.map(String.init), !Self.isIdentifier(member),
                post.successCase["request"]?.objectValue?["body"]?.objectValue?[member] == nil, bodyMember(member, of: post.contract) != nil
            {
                return lookUp(segments: segments, at: last, placeholder: placeholder, member: member, plan, context, level: level, visiting: visiting)
            }
            creator = post
            idPointer = pointer
        } else if !collection.contains("{"), creators.posts[Self.shape(collection)] == nil, creators.puts[Self.shape(itemPath)] == nil,
            let shape = creators.byResource[Self.resourceName(collection).lowercased()], let post = creators.posts[shape], !post.path.contains("{"),
            let pointer = post.idPointer(for: placeholder)
        {
            // An item read under another prefix (`/ui/task_runs/{id}`) is made where that kind
            // of item is made (`POST /task_runs/`).
            creator = post
            idPointer = pointer
            madePath = Self.itemPath(in: post.path, placeholder)
        } else if let put = creators.puts[Self.shape(itemPath)] {
            creator = put
        } else {
            return lookUp(segments: segments, at: last, placeholder: placeholder, plan, context, level: level, visiting: visiting)
                ?? namedByNames(segments: segments, at: last, placeholder: placeholder, needed: needed, plan, context, level: level, visiting: visiting)
                ?? madeWithOwner(collection: collection, placeholder: placeholder, plan, context, level: level, visiting: visiting)
                ?? answeredElsewhere(placeholder: placeholder, plan, context, level: level, visiting: visiting)
                ?? registered(segments: segments, at: last, placeholder: placeholder, plan, context, level: level, visiting: visiting)
        }
        let key = "\(creator.kind):\(Self.shape(creator.path))"
        guard !visiting.contains(key) else { return nil }
        let creatorPath = creator.path
        // One item of a kind that stands alone serves the whole case.
        if !creatorPath.contains("{") || creator.kind == .put && creatorPath.split(separator: "/").filter({ $0.hasPrefix("{") }).count == 1,
            let value = plan.value(madeBy: key), segments[..<last].allSatisfy({ Self.placeholder(in: $0) == nil })
        {
            return [placeholder: value]
        }
        let snapshot = plan.snapshot()
        // A `PUT`'s own last placeholder is the item itself, not a parent.
        let ownPlaceholder = creatorPath.split(separator: "/").last.flatMap { Self.placeholder(in: String($0)) }
        guard let (parentValues, renamed) = makeParents(
            of: creator, except: creator.kind == .put ? ownPlaceholder : nil, for: itemPath, plan, context, level: level, visiting: visiting.union([key]))
        else {
            plan.restore(snapshot)
            return nil
        }
        var values = renamed
        var request = Self.stepRequest(from: creator.contract, case: creator.successCase, pathValues: parentValues)
        let resource = Self.resource(collection)
        let value: String
        var step = JSONObject()
        switch creator.kind {
        case .post:
            let variable = plan.newCapture(Identifiers.placeholder(placeholder), resource: resource)
            value = "${capture:\(variable)}"
            if let idPointer { step["capture"] = .object(JSONObject([JSONObject.Member(key: variable, value: .string(idPointer))])) }
        case .put:
            // The client names the item: a value the server has not seen, the same all through the case.
            let variable = plan.newUnique(Identifiers.placeholder(placeholder), resource: resource)
            value = "${unique:\(variable)}"
            if let ownPlaceholder {
                var pathParams = request["pathParams"]?.objectValue ?? JSONObject()
                pathParams[ownPlaceholder] = .string(value)
                request["pathParams"] = .object(pathParams)
            }
        }
        // What the creator's body names is made before it.
        if case .object(let body)? = request["body"] {
            let references = referencedSteps(in: body, plan, context, level: level + 1, visiting: visiting.union([key]))
            request["body"] = .object(references.body)
        }
        step["request"] = .object(request)
        plan.add(step, verb: "create", resource: resource)
        plan.record(value, madeBy: key)
        values[placeholder] = value
        if let remove = deleteStep(for: madePath, values: values, creators: creators) { plan.addRemoval(remove, resource: resource) }
        return values
    }

    /// The creator's own made-up placeholders (its parent items, all but `except`), made first:
    /// their values by the creator's names, and by the names `callerPath` gives the same segments
    /// (the creator may call the parent `{id}` where the caller says `{item_id}`). Nil when a
    /// parent cannot be made.
    func makeParents(
        of creator: Creator, except: String?, for callerPath: String, _ plan: CasePlan, _ context: Context, level: Int, visiting: Set<String>
    ) -> (own: [String: String], caller: [String: String])? {
        let creatorCase = "\(creator.contract.id)/\(creator.successCase["name"]?.stringValue ?? "")"
        var needs = context.madeUpPaths[creatorCase] ?? []
        if let except { needs.remove(except) }
        guard !needs.isEmpty else { return ([:], [:]) }
        guard let own = make(creator.path, needed: needs, plan, context, level: level + 1, visiting: visiting) else { return nil }
        var rename: [String: String] = [:]
        for (mine, theirs) in zip(creator.path.split(separator: "/"), callerPath.split(separator: "/")) {
            if let from = Self.placeholder(in: String(mine)), let to = Self.placeholder(in: String(theirs)) { rename[from] = to }
        }
        var caller: [String: String] = [:]
        for (name, value) in own { caller[rename[name] ?? name] = value }
        return (own, caller)
    }

    /// An item named by one of its members rather than an id the server gives: read by that
    /// member (`/variables/name/{name}`, `/block_schemas/checksum/{checksum}`), or kept under a
    /// key the client sends (`POST /flow_runs/{id}/input` with `{"key": …}`, then
    /// `/flow_runs/{id}/input/{key}`). The collection's `POST` makes one; the path names it by
    /// the value the `POST` sent (a `${unique:…}` one, the same within the case) or, failing that,
    /// the value its answer holds under that name.
    /// - Parameter member: the member of the create's body and answer that names the item, where
    ///   not the placeholder's own name (`name` for `{work_pool_name}`).
    private func lookUp(
        segments: [String], at last: Int, placeholder: String, member given: String? = nil, _ plan: CasePlan, _ context: Context, level: Int, visiting: Set<String>
    ) -> [String: String]? {
        let member = given ?? placeholder
        let byMember = last >= 2 && (segments[last - 1].lowercased() == placeholder.lowercased() || segments[last - 1] == "by-\(placeholder)")
        let collection = segments[..<(byMember ? last - 1 : last)].joined(separator: "/")
        guard let creator = context.creators.posts[Self.shape(collection)] else { return nil }
        let key = "lookup:\(Self.shape(creator.path)):\(member)"
        guard !visiting.contains(key) else { return nil }
        var body = creator.successCase["request"]?.objectValue?["body"]?.objectValue ?? JSONObject()
        let resource = Self.resource(collection)
        let snapshot = plan.snapshot()
        var sent = body[member]?.stringValue
        // A key the create may send but its case leaves out (an optional `key`) is sent: the item
        // made without it would have none (`null`) to be read by.
        if sent == nil, let schema = bodyMember(member, of: creator.contract) {
            let variable = plan.newUnique(Identifiers.placeholder(resource + "_" + member), resource: resource)
            if let value = UniqueMembers.uniqueValue("", schema: schema, variable: variable) {
                body[member] = .string(value)
                sent = value
            }
        }
        guard sent != nil || creator.answer.contains(member) else {
            plan.restore(snapshot)
            return nil
        }
        guard let (parentValues, renamed) = makeParents(
            of: creator, except: nil, for: collection, plan, context, level: level, visiting: visiting.union([key]))
        else {
            plan.restore(snapshot)
            return nil
        }
        var values = renamed
        var request = Self.stepRequest(from: creator.contract, case: creator.successCase, pathValues: parentValues)
        if !body.isEmpty {
            body = referencedSteps(in: body, plan, context, level: level + 1, visiting: visiting.union([key])).body
            request["body"] = .object(body)
        }
        var step = JSONObject()
        step["request"] = .object(request)
        var captures = JSONObject()
        let value: String
        if let sent {
            value = sent
        } else {
            let variable = plan.newCapture(Identifiers.placeholder(placeholder), resource: resource)
            captures[variable] = .string("/" + member)
            value = "${capture:\(variable)}"
        }
        values[placeholder] = value
        // The item's id, for the teardown that deletes it.
        var removal: JSONObject?
        if let idPointer = creator.idPointer(for: resource + "_id") {
            var idValue = value
            if idPointer != "/" + member {
                let variable = plan.newCapture(resource + "_id", resource: resource)
                captures[variable] = .string(idPointer)
                idValue = "${capture:\(variable)}"
            }
            let itemPath = Self.itemPath(in: collection, "contract_item_id")
            removal = deleteStep(for: itemPath, values: values.merging(["contract_item_id": idValue]) { first, _ in first }, creators: context.creators)
        } else if !byMember {
            // Kept under the client's key: deleted by it.
            removal = deleteStep(for: segments[...last].joined(separator: "/"), values: values, creators: context.creators)
        }
        if !captures.isEmpty { step["capture"] = .object(captures) }
        plan.add(step, verb: "create", resource: resource)
        if let removal { plan.addRemoval(removal, resource: resource) }
        return values
    }

    /// Body members that name another resource by id (`flow_id`, `blockTypeId`) where a `POST`
    /// makes that resource: each made once in the case (before what names it), and the body
    /// reading its value.
    func referencedSteps(
        in body: JSONObject, _ plan: CasePlan, _ context: Context, level: Int, visiting: Set<String>
    ) -> (body: JSONObject, replaced: [String]) {
        var body = body
        var replaced: [String] = []
        guard level < Self.maximumLevels else { return (body, replaced) }
        for member in body.members {
            guard Self.isScalar(member.value), let resource = Self.referencedResource(member.key),
                let shape = context.creators.byResource[resource], let creator = context.creators.posts[shape]
            else { continue }
            let key = "post:\(shape)"
            if let value = plan.value(madeBy: key) {
                body[member.key] = .string(value)
                replaced.append(member.key)
                continue
            }
            guard !visiting.contains(key) else { continue }
            let placeholder = Identifiers.placeholder(member.key)
            // As if the case worked on `/flows/{flow_id}`: the same steps, parents first.
            let itemPath = Self.itemPath(in: creator.path, placeholder)
            guard let values = make(itemPath, needed: [placeholder], plan, context, level: level, visiting: visiting), let value = values[placeholder] else { continue }
            body[member.key] = .string(value)
            replaced.append(member.key)
        }
        return (body, replaced)
    }

    /// The request that deletes the item at `itemPath`, named by `values`; nil when the document
    /// has no `DELETE` for it.
    func deleteStep(for itemPath: String, values: [String: String], creators: Creators) -> JSONObject? {
        guard let deleter = creators.deletes[Self.shape(itemPath)], let deletePath = deleter.value["request"]?.objectValue?["path"]?.stringValue else { return nil }
        var request = Self.stepRequest(from: deleter, case: Self.successCase(of: deleter) ?? JSONObject())
        request["body"] = nil
        request["text"] = nil
        var pathParams = JSONObject()
        for (own, caller) in zip(deletePath.split(separator: "/"), itemPath.split(separator: "/")) {
            guard let name = Self.placeholder(in: String(own)) else { continue }
            guard let callerName = Self.placeholder(in: String(caller)), let value = values[callerName] else {
                // A placeholder the steps did not make: its value as the delete's own case sends it.
                guard let given = request["pathParams"]?.objectValue?[name] else { return nil }
                pathParams[name] = given
                continue
            }
            pathParams[name] = .string(value)
        }
        if pathParams.isEmpty { request["pathParams"] = nil } else { request["pathParams"] = .object(pathParams) }
        var step = JSONObject()
        step["request"] = .object(request)
        return step
    }

    /// For a `POST` case that creates an item: where its answer holds the id, the capture's name,
    /// and the step that deletes the item.
    private func ownTeardown(
        of creator: Creator, path: String, pathParams: JSONObject, _ plan: CasePlan, creators: Creators
    ) -> (capture: String, pointer: String, step: JSONObject)? {
        let resource = Self.resource(path)
        // The member the delete names the item by: its id, or its name where the delete's path
        // takes a name (`/work_pools/{name}`).
        let deleteShape = Self.shape(Self.itemPath(in: path, ""))
        let deletePlaceholder = creators.deletes[deleteShape]?.value["request"]?.objectValue?["path"]?.stringValue?
            .split(separator: "/").last.flatMap { Self.placeholder(in: String($0)) }
        guard let pointer = creator.idPointer(for: deletePlaceholder ?? resource + "_id") else { return nil }
        let itemPath = Self.itemPath(in: path, "contract_item_id")
        var values: [String: String] = [:]
        for member in pathParams {
            if let text = member.value.stringValue { values[member.key] = text } else if Self.isScalar(member.value) {
                values[member.key] = CanonicalJSONWriter(style: .compact).string(member.value)
            }
        }
        let capture = plan.newCapture(resource + "_id", resource: resource)
        values["contract_item_id"] = "${capture:\(capture)}"
        guard let step = deleteStep(for: itemPath, values: values, creators: creators) else { return nil }
        return (capture, pointer, step)
    }

    /// `/users/{}/posts` → `post`, as a step's name and a variable's prefix have it.
    private static func resource(_ collection: String) -> String {
        Identifiers.placeholder(Identifiers.fileSafe(Self.resourceName(collection)).lowercased())
    }
}
