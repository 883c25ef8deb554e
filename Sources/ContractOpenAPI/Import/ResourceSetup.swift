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

    /// A way to make an item: the collection's `POST` contract and where its answer holds the id,
    /// or the item's `PUT` contract.
    private struct Creator {
        enum Kind {
            case post
            case put
        }

        var kind: Kind
        var contract: ImportedContract
        var successCase: JSONObject
        /// The answer's property names, and a wrapper's (`data`, `result`, `item`) when it has one.
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

    /// What a case needs before its request: the steps, the teardown that undoes them (in the
    /// order it runs), and the value each made placeholder now has (`${capture:…}`, `${unique:…}`).
    private struct Plan {
        var steps: [JSONObject] = []
        var teardown: [JSONObject] = []
        var values: [(placeholder: String, value: String)] = []
    }

    private struct Creators {
        var posts: [String: Creator] = [:]  // by collection shape, placeholders as `{}`
        var puts: [String: Creator] = [:]  // by item shape
        var deletes: [String: ImportedContract] = [:]  // by item shape
        /// `POST` creators by the singular name of their collection (`flow` for `/flows/`), for
        /// body members that name one (`flow_id`).
        var byResource: [String: String] = [:]
    }

    /// Adds setup and teardown steps to `contracts` in place. Returns, by `contract-id/case`, the
    /// made-up path parameters the steps now provide, and the body members they now fill as
    /// `body:NAME`.
    func addSteps(to contracts: inout [ImportedContract], madeUp: [MadeUpValue]) -> [String: Set<String>] {
        let madeUpPaths = Self.madeUpPathParameters(madeUp)
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
                let made = madeUpPaths[key] ?? []
                var plan = Plan()
                if !made.isEmpty {
                    guard let madePlan = steps(for: path, making: made, creators: creators, madeUpPaths: madeUpPaths, level: 0) else { continue }
                    plan = madePlan
                }
                var request = testCase["request"]?.objectValue ?? JSONObject()
                var replaced: Set<String> = []
                if Self.isSuccess(testCase), case .object(let body)? = request["body"] {
                    let references = referencedSteps(in: body, creators: creators, madeUpPaths: madeUpPaths, level: 0)
                    if !references.plan.steps.isEmpty {
                        replaced = Set(references.replaced.map { "body:" + $0 })
                        request["body"] = .object(references.body)
                        Self.merge(references.plan, into: &plan)
                    }
                }
                var pathParams = request["pathParams"]?.objectValue ?? JSONObject()
                for (placeholder, value) in plan.values where made.contains(placeholder) { pathParams[placeholder] = .string(value) }
                if !pathParams.isEmpty { request["pathParams"] = .object(pathParams) }
                if !request.isEmpty { testCase["request"] = .object(request) }
                // What a successful `POST` case creates is removed after it.
                if method == "POST", Self.isSuccess(testCase), let creator = creators.posts[Self.shape(path)], creator.contract.id == contracts[index].id,
                    let own = ownTeardown(of: creator, path: path, pathParams: pathParams, creators: creators)
                {
                    testCase["capture"] = .object(JSONObject([JSONObject.Member(key: own.capture, value: .string(own.pointer))]))
                    plan.teardown.insert(own.step, at: 0)
                }
                guard !plan.steps.isEmpty || !plan.teardown.isEmpty else { continue }
                if !plan.steps.isEmpty { testCase["setup"] = .array(plan.steps.map(JSONValue.object)) }
                if !plan.teardown.isEmpty { testCase["teardown"] = .array(Self.uniquelyNamed(plan.teardown).map(JSONValue.object)) }
                // `setup` reads best before the request it prepares.
                cases[caseIndex] = .object(Self.reordered(testCase))
                resolved[key] = Set(plan.values.map(\.placeholder)).intersection(made).union(replaced)
            }
            contracts[index].value["cases"] = .array(cases)
        }
        return resolved
    }

    /// The steps that make every item `path` names up to its last placeholder, parents first, and
    /// for each placeholder the value that names it.
    private func steps(
        for path: String, making needed: Set<String>, creators: Creators, madeUpPaths: [String: Set<String>], level: Int, visiting: Set<String> = []
    ) -> Plan? {
        guard level < Self.maximumLevels else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // The deepest placeholder segment that must be made: `/items/{item_id}` → `/items` makes it.
        guard let last = segments.lastIndex(where: { Self.placeholder(in: $0).map(needed.contains) == true }),
            let placeholder = Self.placeholder(in: segments[last])
        else { return Plan() }
        let collection = segments[..<last].joined(separator: "/")
        let itemPath = segments[...last].joined(separator: "/")
        let creator: Creator
        let idPointer: String?
        // Where the item made is deleted: its own path, unless it is made elsewhere.
        var madePath = itemPath
        if let post = creators.posts[Self.shape(collection)], let pointer = post.idPointer(for: placeholder) {
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
            madePath = post.path + (post.path.hasSuffix("/") ? "" : "/") + "{\(placeholder)}"
        } else if let put = creators.puts[Self.shape(itemPath)] {
            creator = put
            idPointer = nil
        } else {
            return lookUp(segments: segments, at: last, placeholder: placeholder, creators: creators, madeUpPaths: madeUpPaths, level: level, visiting: visiting)
        }
        var plan = Plan()
        // The creator's own made-up placeholders (a parent item) are made first; a `PUT`'s own
        // last one is the item itself.
        let creatorPath = creator.path
        let creatorCase = "\(creator.contract.id)/\(creator.successCase["name"]?.stringValue ?? "")"
        var parentNeeds = madeUpPaths[creatorCase] ?? []
        if creator.kind == .put, let own = creatorPath.split(separator: "/").last.flatMap({ Self.placeholder(in: String($0)) }) { parentNeeds.remove(own) }
        if !parentNeeds.isEmpty {
            guard let parent = self.steps(for: creatorPath, making: parentNeeds, creators: creators, madeUpPaths: madeUpPaths, level: level + 1, visiting: visiting)
            else { return nil }
            plan = parent
        }
        // The creator may name a parent's placeholder otherwise (`/items/{id}/notes` for the
        // caller's `/items/{item_id}/notes/{note_id}`): the segments line up, the names need not.
        var rename: [String: String] = [:]
        for (own, caller) in zip(creatorPath.split(separator: "/"), itemPath.split(separator: "/")) {
            if let from = Self.placeholder(in: String(own)), let to = Self.placeholder(in: String(caller)) { rename[from] = to }
        }
        let parentValues = plan.values
        plan.values = parentValues.map { (placeholder: rename[$0.placeholder] ?? $0.placeholder, value: $0.value) }
        var request = Self.stepRequest(from: creator.contract, case: creator.successCase)
        var pathParams = request["pathParams"]?.objectValue ?? JSONObject()
        for (name, value) in parentValues { pathParams[name] = .string(value) }
        let variable = Identifiers.placeholder(placeholder)
        let value: String
        var step = JSONObject()
        step["name"] = .string(Self.stepName("create", collection, taken: plan.steps))
        switch creator.kind {
        case .post:
            value = "${capture:\(variable)}"
        case .put:
            // The client names the item: a value the server has not seen, the same all through the case.
            value = "${unique:\(variable)}"
            if let own = creatorPath.split(separator: "/").last.flatMap({ Self.placeholder(in: String($0)) }) { pathParams[own] = .string(value) }
        }
        if !pathParams.isEmpty { request["pathParams"] = .object(pathParams) }
        // The body of the creator may name other resources too.
        if case .object(let body)? = request["body"] {
            let references = referencedSteps(
                in: body, creators: creators, madeUpPaths: madeUpPaths, level: level + 1, visiting: visiting.union([Self.shape(creatorPath)]))
            request["body"] = .object(references.body)
            Self.merge(references.plan, into: &plan)
        }
        step["request"] = .object(request)
        if let idPointer { step["capture"] = .object(JSONObject([JSONObject.Member(key: variable, value: .string(idPointer))])) }
        plan.steps.append(step)
        plan.values.append((placeholder, value))
        if let remove = deleteStep(for: madePath, values: plan.values, creators: creators) { plan.teardown.insert(remove, at: 0) }
        return plan
    }

    /// An item named by one of its members rather than an id the server gives: read by that
    /// member (`/variables/name/{name}`, `/block_schemas/checksum/{checksum}`), or kept under a
    /// key the client sends (`POST /flow_runs/{id}/input` with `{"key": …}`, then
    /// `/flow_runs/{id}/input/{key}`). The collection's `POST` makes one; the path names it by
    /// the value the `POST` sent (a `${unique:…}` one, the same within the case) or, failing that,
    /// the value its answer holds under that name.
    private func lookUp(
        segments: [String], at last: Int, placeholder: String, creators: Creators, madeUpPaths: [String: Set<String>], level: Int, visiting: Set<String>
    ) -> Plan? {
        let byMember = last >= 2 && (segments[last - 1].lowercased() == placeholder.lowercased() || segments[last - 1] == "by-\(placeholder)")
        let collection = segments[..<(byMember ? last - 1 : last)].joined(separator: "/")
        guard let creator = creators.posts[Self.shape(collection)] else { return nil }
        var body = creator.successCase["request"]?.objectValue?["body"]?.objectValue ?? JSONObject()
        let sent = body[placeholder]?.stringValue
        guard sent != nil || creator.answer.contains(placeholder) else { return nil }
        var plan = Plan()
        // The creator's own made-up placeholders (a parent item) are made first.
        let creatorCase = "\(creator.contract.id)/\(creator.successCase["name"]?.stringValue ?? "")"
        let parentNeeds = madeUpPaths[creatorCase] ?? []
        if !parentNeeds.isEmpty {
            guard let parent = steps(for: creator.path, making: parentNeeds, creators: creators, madeUpPaths: madeUpPaths, level: level + 1, visiting: visiting)
            else { return nil }
            plan = parent
        }
        var rename: [String: String] = [:]
        for (own, caller) in zip(creator.path.split(separator: "/"), collection.split(separator: "/")) {
            if let from = Self.placeholder(in: String(own)), let to = Self.placeholder(in: String(caller)) { rename[from] = to }
        }
        let parentValues = plan.values
        plan.values = parentValues.map { (placeholder: rename[$0.placeholder] ?? $0.placeholder, value: $0.value) }
        var request = Self.stepRequest(from: creator.contract, case: creator.successCase)
        if !parentValues.isEmpty {
            var pathParams = request["pathParams"]?.objectValue ?? JSONObject()
            for (name, value) in parentValues { pathParams[name] = .string(value) }
            request["pathParams"] = .object(pathParams)
        }
        if !body.isEmpty {
            let references = referencedSteps(
                in: body, creators: creators, madeUpPaths: madeUpPaths, level: level + 1, visiting: visiting.union([Self.shape(creator.path)]))
            body = references.body
            Self.merge(references.plan, into: &plan)
            request["body"] = .object(body)
        }
        var step = JSONObject()
        step["name"] = .string(Self.stepName("create", collection, taken: plan.steps))
        step["request"] = .object(request)
        var captures = JSONObject()
        let value: String
        if let sent {
            value = sent
        } else {
            let variable = Identifiers.placeholder(placeholder)
            captures[variable] = .string("/" + placeholder)
            value = "${capture:\(variable)}"
        }
        // The item's id, for the teardown that deletes it.
        let idVariable = Identifiers.placeholder(Identifiers.resourceName(ofPath: collection).lowercased()) + "_id"
        let idPointer = creator.idPointer(for: idVariable)
        if let idPointer, idPointer != "/" + placeholder { captures[idVariable] = .string(idPointer) }
        if !captures.isEmpty { step["capture"] = .object(captures) }
        plan.steps.append(step)
        plan.values.append((placeholder, value))
        if let idPointer {
            let idValue = idPointer == "/" + placeholder ? value : "${capture:\(idVariable)}"
            let itemPath = collection + (collection.hasSuffix("/") ? "" : "/") + "{\(idVariable)}"
            if let remove = deleteStep(for: itemPath, values: plan.values + [(idVariable, idValue)], creators: creators) { plan.teardown.insert(remove, at: 0) }
        } else if !byMember, let remove = deleteStep(for: segments[...last].joined(separator: "/"), values: plan.values, creators: creators) {
            // Kept under the client's key: deleted by it.
            plan.teardown.insert(remove, at: 0)
        }
        return plan
    }

    /// Body members that name another resource by id (`flow_id`, `blockTypeId`) where a `POST`
    /// makes that resource: the steps that make each, and the body reading their captures.
    private func referencedSteps(
        in body: JSONObject, creators: Creators, madeUpPaths: [String: Set<String>], level: Int, visiting: Set<String> = []
    ) -> (body: JSONObject, plan: Plan, replaced: [String]) {
        var body = body
        var plan = Plan()
        var replaced: [String] = []
        guard level < Self.maximumLevels else { return (body, plan, replaced) }
        for member in body.members {
            guard Self.isScalar(member.value), let resource = Self.referencedResource(member.key),
                let shape = creators.byResource[resource], !visiting.contains(shape), let creator = creators.posts[shape]
            else { continue }
            let placeholder = Identifiers.placeholder(member.key)
            // As if the case worked on `/flows/{flow_id}`: the same steps, parents first.
            let itemPath = creator.path + (creator.path.hasSuffix("/") ? "" : "/") + "{\(placeholder)}"
            guard let made = steps(for: itemPath, making: [placeholder], creators: creators, madeUpPaths: madeUpPaths, level: level, visiting: visiting),
                let value = made.values.last(where: { $0.placeholder == placeholder })?.value
            else { continue }
            Self.merge(made, into: &plan)
            body[member.key] = .string(value)
            replaced.append(member.key)
        }
        return (body, plan, replaced)
    }

    /// The teardown step that deletes the item at `itemPath`, named by `values`; nil when the
    /// document has no `DELETE` for it.
    private func deleteStep(for itemPath: String, values: [(placeholder: String, value: String)], creators: Creators) -> JSONObject? {
        guard let deleter = creators.deletes[Self.shape(itemPath)], let deletePath = deleter.value["request"]?.objectValue?["path"]?.stringValue else { return nil }
        let known = Dictionary(values.map { ($0.placeholder, $0.value) }, uniquingKeysWith: { _, last in last })
        var request = Self.stepRequest(from: deleter, case: Self.successCase(of: deleter) ?? JSONObject())
        request["body"] = nil
        request["text"] = nil
        var pathParams = JSONObject()
        for (own, caller) in zip(deletePath.split(separator: "/"), itemPath.split(separator: "/")) {
            guard let name = Self.placeholder(in: String(own)) else { continue }
            guard let callerName = Self.placeholder(in: String(caller)), let value = known[callerName] else {
                // A placeholder the steps did not make: its value as the delete's own case sends it.
                guard let given = request["pathParams"]?.objectValue?[name] else { return nil }
                pathParams[name] = given
                continue
            }
            pathParams[name] = .string(value)
        }
        if pathParams.isEmpty { request["pathParams"] = nil } else { request["pathParams"] = .object(pathParams) }
        var step = JSONObject()
        step["name"] = .string(Self.stepName("delete", itemPath.split(separator: "/").dropLast().joined(separator: "/"), taken: []))
        step["request"] = .object(request)
        return step
    }

    /// For a `POST` case that creates an item: where its answer holds the id, the capture's name,
    /// and the step that deletes the item.
    private func ownTeardown(of creator: Creator, path: String, pathParams: JSONObject, creators: Creators) -> (capture: String, pointer: String, step: JSONObject)? {
        let resource = Identifiers.placeholder(Self.resourceName(path).lowercased()) + "_id"
        guard let pointer = creator.idPointer(for: resource) else { return nil }
        let itemPath = path + (path.hasSuffix("/") ? "" : "/") + "{\(resource)}"
        var values: [(placeholder: String, value: String)] = pathParams.members.compactMap { member in
            member.value.stringValue.map { (member.key, $0) } ?? (Self.isScalar(member.value) ? (member.key, CanonicalJSONWriter(style: .compact).string(member.value)) : nil)
        }
        values.append((resource, "${capture:\(resource)}"))
        guard let step = deleteStep(for: itemPath, values: values, creators: creators) else { return nil }
        return (resource, pointer, step)
    }

    /// A step's request from a contract and its case: the endpoint's method, path, headers and
    /// query with the case's merged over them, and the case's values; never what describes every
    /// request of the endpoint (parameters, the body's schema and media type), which is the
    /// contract's to check.
    private static func stepRequest(from contract: ImportedContract, case testCase: JSONObject) -> JSONObject {
        var request = contract.value["request"]?.objectValue ?? JSONObject()
        for key in ["parameters", "schema", "contentType"] { request[key] = nil }
        let own = testCase["request"]?.objectValue ?? JSONObject()
        for member in own where member.key != "schema" {
            // The case's headers and query add to the contract's, as when the case itself runs.
            if case .object(var shared)? = request[member.key], case .object(let extra) = member.value {
                for entry in extra { shared[entry.key] = entry.value }
                request[member.key] = .object(shared)
            } else {
                request[member.key] = member.value
            }
        }
        return request
    }

    /// Whether the path parameter the contract names `placeholder` takes a `${unique:…}` value:
    /// text of any shape of 12 letters and digits, read from the operation's parameter in the
    /// document (a parameter without a schema takes text).
    private func takesUniqueValue(_ contract: ImportedContract, placeholder: String) -> Bool {
        let operationPointer = contract.pointer
        let pathItemPointer = JSONPointer(tokens: Array(operationPointer.tokens.dropLast()))
        var candidates: [(JSONValue, JSONPointer)] = []
        for at in [operationPointer, pathItemPointer] {
            guard let list = document.value(at: at)?.objectValue?["parameters"]?.arrayValue else { continue }
            candidates += list.enumerated().map { ($0.element, at.appending("parameters").appending($0.offset)) }
        }
        for (value, at) in candidates {
            guard let (parameter, resolvedAt) = document.resolved(value, at: at), parameter["in"]?.stringValue == "path",
                let name = parameter["name"]?.stringValue, Identifiers.placeholder(name) == placeholder
            else { continue }
            // Swagger 2.0 gives the type on the parameter itself.
            let schemaValue = parameter["schema"] ?? .object(parameter)
            guard let (schema, _) = document.resolved(schemaValue, at: resolvedAt.appending("schema")) else { return true }
            return UniqueMembers.uniqueValue("", schema: schema, variable: placeholder) != nil
        }
        return true
    }

    /// The property names of the creator's success answer, and of its wrapper if it has one.
    private func answerNames(of contract: ImportedContract) -> ([String], (wrapper: String, names: [String])?)? {
        guard let responses = document.value(at: contract.pointer)?.objectValue?["responses"]?.objectValue else { return nil }
        for key in ["201", "200", "202", "2XX", "default"] {
            guard let response = responses[key], let (object, at) = document.resolved(response, at: contract.pointer.appending("responses").appending(key)),
                let content = object["content"]?.objectValue,
                let media = content.members.first(where: { $0.key.lowercased().contains("json") }),
                let schema = media.value.objectValue?["schema"]
            else { continue }
            let properties = propertyNames(of: schema, at: at.appending("content").appending(media.key).appending("schema"), steps: 0)
            // Every part that describes the wrapper counts: an envelope's `result` is refined by
            // the operation's own `allOf` part.
            let wrapped = ["data", "result", "item"].lazy.compactMap { wrapper -> (String, [String])? in
                let names = properties.filter { $0.name == wrapper }.flatMap { self.propertyNames(of: $0.schema, at: $0.pointer, steps: 0).map(\.name) }
                return names.isEmpty ? nil : (wrapper, names)
            }.first
            return (properties.map(\.name), wrapped)
        }
        return nil
    }

    /// The properties a schema declares, through references and `allOf`.
    private func propertyNames(of schema: JSONValue, at pointer: JSONPointer, steps: Int) -> [(name: String, schema: JSONValue, pointer: JSONPointer)] {
        guard steps < 32, let (object, at) = document.resolved(schema, at: pointer) else { return [] }
        var result = (object["properties"]?.objectValue ?? JSONObject()).members.map {
            ($0.key, $0.value, at.appending("properties").appending($0.key))
        }
        for (index, part) in (object["allOf"]?.arrayValue ?? []).enumerated() {
            result += propertyNames(of: part, at: at.appending("allOf").appending(index), steps: steps + 1)
        }
        return result
    }

    // MARK: Reading the contracts

    private static func madeUpPathParameters(_ madeUp: [MadeUpValue]) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for value in madeUp where value.location == "path" {
            for use in value.usedBy { result[use, default: []].insert(Identifiers.placeholder(value.name)) }
        }
        return result
    }

    private static func successCase(of contract: ImportedContract) -> JSONObject? {
        contract.value["cases"]?.arrayValue?.lazy.compactMap(\.objectValue).first(where: isSuccess)
    }

    private static func isWithoutCredentials(_ testCase: JSONObject) -> Bool {
        testCase["name"]?.stringValue == "no-credentials"
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .number: true
        default: false
        }
    }

    /// `flow_id`, `flowId`, `flow_uuid` → `flow`; nil for a member that names no resource.
    static func referencedResource(_ member: String) -> String? {
        for suffix in ["_id", "_uuid", "Id", "Uuid", "ID"] where member.hasSuffix(suffix) && member.count > suffix.count {
            var stem = String(member.dropLast(suffix.count))
            // `blockTypeId` → `block_type`, as collections are usually written.
            stem = stem.reduce(into: "") { text, character in
                if character.isUppercase, !text.isEmpty { text += "_" }
                text += character.lowercased()
            }
            return stem
        }
        return nil
    }

    /// `create-item`, then `create-item-2`… within one list of steps.
    private static func stepName(_ verb: String, _ collection: String, taken: [JSONObject]) -> String {
        let base = verb + "-" + Identifiers.fileSafe(resourceName(collection)).lowercased()
        var name = base
        var number = 2
        while taken.contains(where: { $0["name"] == .string(name) }) {
            name = "\(base)-\(number)"
            number += 1
        }
        return name
    }

    private static func renamedStep(_ step: JSONObject, taken: [JSONObject]) -> JSONObject {
        guard let name = step["name"]?.stringValue, taken.contains(where: { $0["name"] == .string(name) }) else { return step }
        var step = step
        var number = 2
        while taken.contains(where: { $0["name"] == .string("\(name)-\(number)") }) { number += 1 }
        step["name"] = .string("\(name)-\(number)")
        return step
    }

    /// Adds `other`'s steps after `plan`'s and its teardown before, leaving out a step the plan
    /// has already: one item serves every member that names it (a block document's
    /// `block_type_id`, and its block schema's), and making it twice would collide on its unique
    /// name.
    private static func merge(_ other: Plan, into plan: inout Plan) {
        func unnamed(_ step: JSONObject) -> JSONObject {
            var step = step
            step["name"] = nil
            return step
        }
        for step in other.steps where !plan.steps.contains(where: { unnamed($0) == unnamed(step) }) {
            plan.steps.append(renamedStep(step, taken: plan.steps))
        }
        var teardown = plan.teardown
        for step in other.teardown.reversed() where !teardown.contains(where: { unnamed($0) == unnamed(step) }) {
            teardown.insert(step, at: 0)
        }
        plan.teardown = teardown
    }

    /// Teardown step names, unique within the case.
    private static func uniquelyNamed(_ steps: [JSONObject]) -> [JSONObject] {
        var named: [JSONObject] = []
        for step in steps { named.append(renamedStep(step, taken: named)) }
        return named
    }

    /// Whether the case expects success: every status it accepts is a 2XX.
    private static func isSuccess(_ testCase: JSONObject) -> Bool {
        let status = testCase["response"]?.objectValue?["status"]
        let alternatives: [JSONValue] = status?.arrayValue ?? [status].compactMap { $0 }
        return !alternatives.isEmpty && alternatives.allSatisfy {
            switch $0 {
            case .number(let number): (200...299).contains(number.intValue ?? 0)
            case .string(let text): text.uppercased() == "2XX"
            default: false
            }
        }
    }

    /// `/users/{user_id}/posts` → `/users/{}/posts`: placeholder names differ between operations.
    private static func shape(_ path: String) -> String {
        var result = ""
        var inside = false
        for character in path {
            if character == "{" { inside = true; result.append("{") } else if character == "}" { inside = false; result.append("}") } else if !inside { result.append(character) }
        }
        return result.hasSuffix("/") && result.count > 1 ? String(result.dropLast()) : result
    }

    private static func placeholder(in segment: String) -> String? {
        guard segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2 else { return nil }
        return String(segment.dropFirst().dropLast())
    }

    /// `/users/{}/posts` → `post`: the last literal segment, singular.
    private static func resourceName(_ collection: String) -> String {
        Identifiers.resourceName(ofPath: collection)
    }

    /// The case's keys in the order a person reads them: name, setup, request, response, then
    /// what the teardown captures and does.
    private static func reordered(_ testCase: JSONObject) -> JSONObject {
        let order = ["name", "setup", "request", "response", "capture", "teardown"]
        let known = order.compactMap { key in testCase[key].map { JSONObject.Member(key: key, value: $0) } }
        return JSONObject(known + testCase.members.filter { !order.contains($0.key) })
    }
}
