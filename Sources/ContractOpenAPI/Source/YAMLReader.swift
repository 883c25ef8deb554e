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
        let value = try convert(root, at: .root, depth: 0, marks: &marks)
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

    private static func convert(_ node: Node, at pointer: JSONPointer, depth: Int, marks: inout [JSONPointer: SourceLocation]) throws(Failure) -> JSONValue {
        let location = node.mark.map { SourceLocation(line: $0.line, column: $0.column, offset: 0) }
        if let location { marks[pointer] = location }
        guard depth < maxDepth else { throw Failure(message: "the document nests deeper than \(maxDepth) levels", location: location) }
        switch node {
        case .scalar(let scalar):
            return try value(of: scalar, location: location)
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            for (index, element) in sequence.enumerated() {
                elements.append(try convert(element, at: pointer.appending(index), depth: depth + 1, marks: &marks))
            }
            return .array(elements)
        case .mapping(let mapping):
            var object = JSONObject()
            for (key, value) in mapping {
                guard case .scalar(let name) = key else {
                    throw Failure(message: "a mapping key must be a plain string, found a \(kind(of: key))", location: location)
                }
                guard !object.contains(name.string) else {
                    throw Failure(message: "duplicate key '\(name.string)'", location: name.mark.map { SourceLocation(line: $0.line, column: $0.column, offset: 0) })
                }
                object[name.string] = try convert(value, at: pointer.appending(name.string), depth: depth + 1, marks: &marks)
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
