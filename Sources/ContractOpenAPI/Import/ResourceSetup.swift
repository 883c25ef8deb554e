import ContractJSON
import ContractModel

/// Setup steps that create what a case works on, so each case stands on its own.
///
/// A case for `GET /items/{item_id}` whose id the import had to make up would ask for an item the
/// server does not have, and a `DELETE` of the same made-up id would race it. Where the document
/// shows how to make one (a `POST` on the collection, `/items`, whose success response has the
/// id), the success cases of the item's operations first run that `POST` (with the request its own
/// contract sends) and capture the id from the answer: `"item_id": "${capture:item_id}"`. A
/// collection below another item (`/users/{user_id}/posts`) gets the user made first, the same
/// way. Values the document or the user gives (`--value`) are kept: they name something real.
struct ResourceSetup {
    let document: OpenAPIDocument
    /// Parent items made before this many levels are not made (far beyond real APIs).
    static let maximumLevels = 6

    /// A way to make an item: the collection's `POST` contract and where its answer holds the id.
    private struct Creator {
        var contract: ImportedContract
        var successCase: JSONObject
        /// The answer's property names, and a wrapper's (`data`, `result`, `item`) when it has one.
        var answer: [String]
        var wrapped: (wrapper: String, names: [String])?

        /// Where the answer holds the id that fills `placeholder`: `/id`, `/item_id`, `/data/id`.
        func idPointer(for placeholder: String) -> String? {
            let candidates = [placeholder, "id", "uuid", "ID", "Id", "_id", "slug"]
            if let name = candidates.first(where: answer.contains) { return "/" + name }
            if let wrapped, let name = candidates.first(where: wrapped.names.contains) { return "/\(wrapped.wrapper)/\(name)" }
            return nil
        }
    }

    /// Adds setup steps to `contracts` in place. Returns the cases that now create their items,
    /// by `contract-id/case`, each with the path parameters that no longer are made up.
    func addSteps(to contracts: inout [ImportedContract], madeUp: [MadeUpValue]) -> [String: Set<String>] {
        let madeUpPaths = Self.madeUpPathParameters(madeUp)
        var creators: [String: Creator] = [:]  // by collection path, placeholders as `{}`
        for contract in contracts where contract.value["request"]?.objectValue?["method"]?.stringValue == "POST" {
            guard let path = contract.value["request"]?.objectValue?["path"]?.stringValue,
                let successCase = Self.successCase(of: contract), creators[Self.shape(path)] == nil,
                let (answer, wrapped) = answerNames(of: contract)
            else { continue }
            creators[Self.shape(path)] = Creator(contract: contract, successCase: successCase, answer: answer, wrapped: wrapped)
        }
        var resolved: [String: Set<String>] = [:]
        for index in contracts.indices {
            guard let path = contracts[index].value["request"]?.objectValue?["path"]?.stringValue,
                case .array(var cases)? = contracts[index].value["cases"]
            else { continue }
            for caseIndex in cases.indices {
                guard case .object(var testCase) = cases[caseIndex], Self.isSuccess(testCase),
                    let name = testCase["name"]?.stringValue, testCase["setup"] == nil
                else { continue }
                let key = "\(contracts[index].id)/\(name)"
                let made = madeUpPaths[key] ?? []
                guard !made.isEmpty, let plan = steps(for: path, making: made, creators: creators, madeUpPaths: madeUpPaths, level: 0),
                    !plan.steps.isEmpty
                else { continue }
                var request = testCase["request"]?.objectValue ?? JSONObject()
                var pathParams = request["pathParams"]?.objectValue ?? JSONObject()
                for (placeholder, capture) in plan.captured where made.contains(placeholder) {
                    pathParams[placeholder] = .string("${capture:\(capture)}")
                }
                request["pathParams"] = .object(pathParams)
                testCase["setup"] = .array(plan.steps.map(JSONValue.object))
                testCase["request"] = .object(request)
                // `setup` reads best before the request it prepares.
                cases[caseIndex] = .object(Self.reordered(testCase))
                resolved[key] = Set(plan.captured.map(\.placeholder)).intersection(made)
            }
            contracts[index].value["cases"] = .array(cases)
        }
        return resolved
    }

    /// The steps that make every item `path` names up to its last placeholder, parents first, and
    /// for each placeholder the capture that holds its value.
    private func steps(
        for path: String, making needed: Set<String>, creators: [String: Creator], madeUpPaths: [String: Set<String>], level: Int
    ) -> (steps: [JSONObject], captured: [(placeholder: String, capture: String)])? {
        guard level < Self.maximumLevels else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // The deepest placeholder segment that must be made: `/items/{item_id}` → `/items` makes it.
        guard let last = segments.lastIndex(where: { Self.placeholder(in: $0).map(needed.contains) == true }),
            let placeholder = Self.placeholder(in: segments[last])
        else { return ([], []) }
        let collection = segments[..<last].joined(separator: "/")
        guard let creator = creators[Self.shape(collection)], let idPointer = creator.idPointer(for: placeholder) else { return nil }
        var steps: [JSONObject] = []
        // Captures by the creator's placeholder names, for its own request.
        var parentCaptures: [(placeholder: String, capture: String)] = []
        // The creator's own made-up placeholders (a parent item) are made first.
        let creatorPath = creator.contract.value["request"]?.objectValue?["path"]?.stringValue ?? collection
        let creatorCase = "\(creator.contract.id)/\(creator.successCase["name"]?.stringValue ?? "")"
        let parentNeeds = madeUpPaths[creatorCase] ?? []
        if !parentNeeds.isEmpty {
            guard let parent = self.steps(for: creatorPath, making: parentNeeds, creators: creators, madeUpPaths: madeUpPaths, level: level + 1) else { return nil }
            steps += parent.steps
            parentCaptures = parent.captured
        }
        // The creator may name a parent's placeholder otherwise (`/items/{id}/notes` for the
        // caller's `/items/{item_id}/notes/{note_id}`): the segments line up, the names need not.
        var rename: [String: String] = [:]
        for (own, caller) in zip(creatorPath.split(separator: "/"), collection.split(separator: "/")) {
            if let from = Self.placeholder(in: String(own)), let to = Self.placeholder(in: String(caller)) { rename[from] = to }
        }
        var captured = parentCaptures.map { (placeholder: rename[$0.placeholder] ?? $0.placeholder, capture: $0.capture) }
        var request = creator.contract.value["request"]?.objectValue ?? JSONObject()
        // A step is one request, not an endpoint: what the creator's endpoint describes for every
        // request (parameters, the body's schema and media type) is the creator's contract's to check.
        for key in ["parameters", "schema", "contentType"] { request[key] = nil }
        let own = creator.successCase["request"]?.objectValue ?? JSONObject()
        for member in own where member.key != "pathParams" && member.key != "schema" {
            // The case's headers and query add to the contract's, as when the case itself runs.
            if case .object(var shared)? = request[member.key], case .object(let extra) = member.value {
                for entry in extra { shared[entry.key] = entry.value }
                request[member.key] = .object(shared)
            } else {
                request[member.key] = member.value
            }
        }
        var pathParams = own["pathParams"]?.objectValue ?? JSONObject()
        for (name, capture) in parentCaptures { pathParams[name] = .string("${capture:\(capture)}") }
        if !pathParams.isEmpty { request["pathParams"] = .object(pathParams) }
        let capture = Identifiers.placeholder(placeholder)
        let stepName = "create-" + Identifiers.fileSafe(Self.resourceName(collection)).lowercased()
        var step = JSONObject()
        step["name"] = .string(steps.contains { $0["name"] == .string(stepName) } ? stepName + "-\(level)" : stepName)
        step["request"] = .object(request)
        if let status = creator.successCase["response"]?.objectValue?["status"] { step["status"] = status }
        step["capture"] = .object(JSONObject([JSONObject.Member(key: capture, value: .string(idPointer))]))
        steps.append(step)
        captured.append((placeholder, capture))
        return (steps, captured)
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

    private static func isSuccess(_ testCase: JSONObject) -> Bool {
        switch testCase["response"]?.objectValue?["status"] {
        case .number(let number)?: (200...299).contains(number.intValue ?? 0)
        case .string(let text)?: text.uppercased() == "2XX"
        default: false
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
        let last = collection.split(separator: "/").last(where: { !$0.hasPrefix("{") }).map(String.init) ?? "item"
        if last.hasSuffix("ies") { return String(last.dropLast(3)) + "y" }
        if last.hasSuffix("s"), !last.hasSuffix("ss") { return String(last.dropLast()) }
        return last
    }

    /// The case's keys in the order a person reads them: name, setup, request, response.
    private static func reordered(_ testCase: JSONObject) -> JSONObject {
        let order = ["name", "setup", "request", "response"]
        let known = order.compactMap { key in testCase[key].map { JSONObject.Member(key: key, value: $0) } }
        return JSONObject(known + testCase.members.filter { !order.contains($0.key) })
    }
}
