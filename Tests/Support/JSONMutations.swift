import ContractJSON

/// Every value of a document replaced in turn, for robustness tests: the pointers of all its
/// values, and a copy with one of them replaced.
public enum JSONMutations {
    public static func pointers(in value: JSONValue, at pointer: JSONPointer = .root) -> [JSONPointer] {
        switch value {
        case .object(let object): [pointer] + object.members.flatMap { pointers(in: $0.value, at: pointer.appending($0.key)) }
        case .array(let elements): [pointer] + elements.enumerated().flatMap { pointers(in: $0.element, at: pointer.appending($0.offset)) }
        default: [pointer]
        }
    }

    public static func replacing(_ pointer: JSONPointer, in value: JSONValue, with replacement: JSONValue) -> JSONValue {
        guard let first = pointer.tokens.first else { return replacement }
        let rest = JSONPointer(tokens: Array(pointer.tokens.dropFirst()))
        switch value {
        case .object(var object):
            object[first] = object[first].map { replacing(rest, in: $0, with: replacement) }
            return .object(object)
        case .array(var elements):
            if let index = Int(first), elements.indices.contains(index) { elements[index] = replacing(rest, in: elements[index], with: replacement) }
            return .array(elements)
        default:
            return value
        }
    }
}
