import ContractJSON
import Foundation
import Yams

/// YAML to JSON values, with the line and column of every value.
///
/// Scalars are resolved by YAML 1.2's core schema, not Yams' YAML 1.1 default: in an API
/// document `yes`, `on` or `2026-01-05` are strings (an enum of `[yes, no]`, a date example),
/// and numbers keep their exact text (`1.10` stays a decimal, not a binary double).
enum YAMLReader {
    struct Failure: Error {
        var message: String
        var location: SourceLocation?
    }

    static func read(_ text: String) throws(Failure) -> (JSONValue, [JSONPointer: SourceLocation]) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, resolver)
        } catch let error as YamlError {
            throw describe(error)
        } catch {
            throw Failure(message: "\(error)", location: nil)
        }
        guard let root else { throw Failure(message: "the document is empty", location: nil) }
        var marks: [JSONPointer: SourceLocation] = [:]
        var budget = maxValues + text.utf8.count
        let value = try convert(root, at: .root, depth: 0, budget: &budget, marks: &marks)
        return (value, marks)
    }

    private static let resolver: Resolver = {
        // Yams tries the rules in order and takes the first that matches.
        do {
            return try Resolver.basic
                .appending(.null, "^(?:~|null|Null|NULL|)$")
                .appending(.bool, "^(?:true|True|TRUE|false|False|FALSE)$")
                .appending(.int, "^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
                .appending(.float, "^(?:[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$")
        } catch {
            preconditionFailure("the YAML 1.2 core schema rules are fixed patterns: \(error)")
        }
    }()

    /// The JSON parser's nesting limit: deeper documents are refused, not a stack overflow.
    static let maxDepth = 512
    /// Aliases let a few hundred bytes stand for billions of values ("billion laughs"): a document
    /// may expand to this many values more than it has bytes, and is refused beyond that rather
    /// than filling memory.
    static let maxValues = 100_000

    private static func convert(
        _ node: Node, at pointer: JSONPointer, depth: Int, budget: inout Int, marks: inout [JSONPointer: SourceLocation]
    ) throws(Failure) -> JSONValue {
        let location = node.mark.map { SourceLocation(line: $0.line, column: $0.column, offset: 0) }
        if let location { marks[pointer] = location }
        guard depth < maxDepth else { throw Failure(message: "the document nests deeper than \(maxDepth) levels", location: location) }
        budget -= 1
        guard budget >= 0 else {
            throw Failure(message: "the document's aliases expand it to more values than it can hold", location: location)
        }
        switch node {
        case .scalar(let scalar):
            return try value(of: scalar, location: location)
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            for (index, element) in sequence.enumerated() {
                elements.append(try convert(element, at: pointer.appending(index), depth: depth + 1, budget: &budget, marks: &marks))
            }
            return .array(elements)
        case .mapping(let mapping):
            var object = JSONObject()
            var merged: [Node] = []
            for (key, value) in mapping {
                // A merge key (`<<: *base`) brings in the keys of another mapping; keys written
                // here win, as YAML says and as OpenAPIKit (through Yams) reads it.
                if case .scalar(let name) = key, name.string == "<<", name.style == .plain {
                    if case .sequence(let sources) = value { merged += sources } else { merged.append(value) }
                    continue
                }
                guard case .scalar(let name) = key else {
                    throw Failure(message: "a mapping key must be a plain string, found a \(kind(of: key))", location: location)
                }
                guard !object.contains(name.string) else {
                    throw Failure(message: "duplicate key '\(name.string)'", location: name.mark.map { SourceLocation(line: $0.line, column: $0.column, offset: 0) })
                }
                object[name.string] = try convert(value, at: pointer.appending(name.string), depth: depth + 1, budget: &budget, marks: &marks)
            }
            for source in merged {
                guard case .object(let extra) = try convert(source, at: pointer, depth: depth + 1, budget: &budget, marks: &marks) else {
                    throw Failure(message: "a merge key ('<<') must refer to a mapping or a list of mappings", location: location)
                }
                for member in extra where !object.contains(member.key) { object[member.key] = member.value }
            }
            return .object(object)
        case .alias:
            // Yams resolves aliases while composing; one left here is one it could not resolve.
            throw Failure(message: "an alias to an anchor that is not defined", location: location)
        }
    }

    private static func value(of scalar: Node.Scalar, location: SourceLocation?) throws(Failure) -> JSONValue {
        let text = scalar.string
        switch resolver.resolveTag(of: .scalar(scalar)) {
        case .null: return .null
        case .bool: return .bool(text.first == "t" || text.first == "T")
        case .int:
            if text.hasPrefix("0x") || text.hasPrefix("0o"), let int = Int64(text.dropFirst(2), radix: text.hasPrefix("0x") ? 16 : 8) {
                return .number(JSONNumber(int))
            }
            if let number = JSONNumber(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return .number(number) }
        case .float:
            var json = text.hasPrefix("+") ? String(text.dropFirst()) : text
            if json.hasPrefix(".") || json.hasPrefix("-.") { json = json.replacingOccurrences(of: ".", with: "0.", options: [], range: json.range(of: ".")) }
            if json.hasSuffix(".") { json += "0" }
            json = json.replacingOccurrences(of: ".e", with: ".0e").replacingOccurrences(of: ".E", with: ".0E")
            if let number = JSONNumber(json) { return .number(number) }
            throw Failure(message: "'\(text)' has no JSON equivalent (JSON numbers are finite)", location: location)
        default:
            return .string(text)
        }
        return .string(text)
    }

    private static func kind(of node: Node) -> String {
        switch node {
        case .scalar: "scalar"
        case .sequence: "sequence"
        case .mapping: "mapping"
        case .alias: "alias"
        }
    }

    private static func describe(_ error: YamlError) -> Failure {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\($0.text) " } ?? ""
            return Failure(message: "invalid YAML: \(detail)\(problem)", location: SourceLocation(line: mark.line, column: mark.column, offset: 0))
        default:
            // Reader errors (bad encoding) and the rest carry their own position in the text.
            return Failure(message: "invalid YAML: \(error)", location: nil)
        }
    }
}
