import ContractJSON

/// The other files of a split 2.0 document. They are bundled before the conversion (so a
/// reference from them back into the document, `../swagger.yaml#/definitions/Pet`, reads
/// `#/definitions/Pet` and is moved with the others), and what they hold is converted by the role
/// a reference gives it: a file referred to as a schema is a schema, one referred to as a path
/// item is a path item, and so on. The values are replaced where they are, so references into
/// them still lead there.
extension Swagger2Converter {
    enum Role: Sendable {
        case schema, parameter, response, pathItem, operation
    }

    /// Notes that `reference`, written in the role `role`, may lead into a bundled file.
    mutating func refer(to reference: JSONValue, as role: Role) {
        guard let text = reference.stringValue, let pointer = OpenAPIDocument.localPointer(text),
            pointer.tokens.first == ExternalReferences.area, queued.insert(pointer).inserted
        else { return }
        pending.append((pointer, role))
    }

    /// A shared parameter that a `$ref` names, in the document (`#/parameters/limit`) or in a
    /// bundled file, reference after reference; nil when `parameter` is no reference, or leads
    /// nowhere. A body or form field is taken in by each operation, with its `consumes`.
    func sharedParameter(_ parameter: JSONObject) -> JSONObject? {
        var current = parameter
        for _ in 0..<32 {
            guard let reference = current["$ref"]?.stringValue else { return current == parameter ? nil : current }
            if reference.hasPrefix("#/parameters/"), let shared = sharedParameters[String(reference.dropFirst("#/parameters/".count))] {
                current = shared
            } else if let pointer = OpenAPIDocument.localPointer(reference), pointer.tokens.first == ExternalReferences.area,
                case .object(let next)? = source[pointer: pointer]
            {
                current = next
            } else {
                return nil
            }
        }
        return nil
    }

    /// The bundled files with every place a reference reached converted, or nil when there are
    /// none. Converting one place may reach others, which join the work; each is converted once.
    mutating func convertFiles() -> JSONObject? {
        guard case .object(let files)? = source.objectValue?[ExternalReferences.area] else { return nil }
        var converted: [(pointer: JSONPointer, value: JSONValue)] = []
        var next = 0
        while next < pending.count {
            let (pointer, role) = pending[next]
            next += 1
            guard let value = source[pointer: pointer] else { continue }
            converted.append((pointer, convert(value, as: role, at: pointer.tokens)))
        }
        // What no reference reaches is not converted, but its references back into the document
        // are moved all the same, so they do not seem to lead nowhere.
        var area = Self.movingReferences(.object(files), at: JSONPointer(tokens: [ExternalReferences.area]))
        // Outer places first, so a place inside one (a schema inside a schema file) is set last,
        // converted alike.
        for (pointer, value) in converted.sorted(by: { $0.pointer.tokens.count < $1.pointer.tokens.count }) {
            Self.set(value, at: pointer.tokens.dropFirst(), in: &area)
        }
        return area.objectValue
    }

    private mutating func convert(_ value: JSONValue, as role: Role, at tokens: [String]) -> JSONValue {
        guard case .object(let object) = value else { return value }
        if role != .schema, let reference = object["$ref"] {
            // A reference to a reference: the next place has the same role.
            refer(to: reference, as: role)
            return .object(JSONObject([.init(key: "$ref", value: reference.stringValue.map { .string(Self.rewrite($0)) } ?? reference)]))
        }
        switch role {
        case .schema: return schema(value)
        case .parameter: return .object(parameter(object))
        case .response:
            // Warnings about the schema point to where the file has it.
            for mediaType in produces.isEmpty ? ["application/json"] : produces {
                moved(tokens + ["content", mediaType, "schema"], from: tokens + ["schema"])
            }
            return .object(response(object, produces: produces))
        case .pathItem: return .object(pathItem(object, at: tokens))
        case .operation: return .object(operation(object, inherited: [], at: tokens, produces: produces, consumes: consumes))
        }
    }

    /// `value` with every reference into the document moved (`#/definitions/` to
    /// `#/components/schemas/`…); example data and extensions kept as written.
    private static func movingReferences(_ value: JSONValue, at pointer: JSONPointer) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.members.map { member in
                if member.key == "$ref", let reference = member.value.stringValue { return .init(key: "$ref", value: .string(rewrite(reference))) }
                // The area's own members are files, whatever their names.
                let isFile = pointer.tokens == [ExternalReferences.area]
                let isData = ExternalReferences.isData(member.key, member.value, in: pointer) && !ExternalReferences.isNameMap(pointer)
                if (member.key.hasPrefix("x-") && !isFile) || isData { return member }
                return .init(key: member.key, value: movingReferences(member.value, at: pointer.appending(member.key)))
            }))
        case .array(let elements):
            return .array(elements.enumerated().map { movingReferences($0.element, at: pointer.appending($0.offset)) })
        default:
            return value
        }
    }

    /// `value` put at `tokens` inside `root`, when the place is there. Each level is taken out
    /// before it is changed, so it is changed in place rather than copied (a chain of 20,000
    /// files would otherwise copy the whole area 20,000 times).
    private static func set(_ value: JSONValue, at tokens: ArraySlice<String>, in root: inout JSONValue) {
        guard let first = tokens.first else {
            root = value
            return
        }
        switch root {
        case .object(var object):
            root = .null
            if var child = object[first] {
                object[first] = .null
                set(value, at: tokens.dropFirst(), in: &child)
                object[first] = child
            }
            root = .object(object)
        case .array(var elements):
            root = .null
            if let index = JSONPointer.arrayIndex(first), elements.indices.contains(index) {
                var child = elements[index]
                elements[index] = .null
                set(value, at: tokens.dropFirst(), in: &child)
                elements[index] = child
            }
            root = .array(elements)
        default:
            return
        }
    }
}
