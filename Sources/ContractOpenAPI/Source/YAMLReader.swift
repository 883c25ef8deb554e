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
        /// Nil only when the problem concerns no place in the text (Yams ran out of memory).
        var location: SourceLocation?
    }

    /// Where each value starts, mirroring the value's shape as `JSONSourceMap` does for JSON, so a
    /// value is found by walking a pointer's tokens. (A table keyed by pointer hashed, for every
    /// value, every key above it: a key of megabytes made the import quadratic.)
    indirect enum SourceMap {
        case scalar(SourceLocation?)
        case array(SourceLocation?, elements: [SourceMap])
        /// Members in the order of the object's members.
        case object(SourceLocation?, members: [SourceMap])

        var location: SourceLocation? {
            switch self {
            case .scalar(let location), .array(let location, _), .object(let location, _): location
            }
        }

        /// Where the value at `pointer` in `value` (which this map mirrors) starts.
        func location(of pointer: JSONPointer, in value: JSONValue) -> SourceLocation? {
            var value = value
            var map = self
            for token in pointer.tokens {
                switch (value, map) {
                case (.object(let object), .object(_, let members)):
                    guard let position = object.position(of: token), position < members.count else { return nil }
                    (value, map) = (object.members[position].value, members[position])
                case (.array(let elements), .array(_, let maps)):
                    guard let index = JSONPointer.arrayIndex(token), index < elements.count, index < maps.count else { return nil }
                    (value, map) = (elements[index], maps[index])
                default:
                    return nil
                }
            }
            return map.location
        }
    }

    static func read(_ text: String) throws(Failure) -> (JSONValue, SourceMap) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, resolver)
        } catch let error as YamlError {
            throw describe(error, in: text)
        } catch {
            // Yams throws only YamlError; anything else has no place in the text to point at.
            throw Failure(message: "invalid YAML: \(MessageText.oneLine(String(describing: error), to: maxReasonLength))", location: nil)
        }
        // A stream without a document (nothing, or only comments): where it should have started.
        guard let root else { throw Failure(message: "the document is empty", location: SourceLocation(line: 1, column: 1, offset: 0)) }
        var budget = maxValues + text.utf8.count
        return try convert(root, depth: 0, budget: &budget)
    }

    /// The messages of Yams and libyaml are short fixed texts; this bounds them all the same.
    static let maxReasonLength = 300

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

    private static func convert(_ node: Node, depth: Int, budget: inout Int) throws(Failure) -> (JSONValue, SourceMap) {
        let location = node.mark.map(location(of:))
        guard depth < maxDepth else { throw Failure(message: "the document nests deeper than \(maxDepth) levels", location: location) }
        budget -= 1
        guard budget >= 0 else {
            throw Failure(message: "the document's aliases expand it to more values than it can hold", location: location)
        }
        switch node {
        case .scalar(let scalar):
            return (try value(of: scalar, location: location), .scalar(location))
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            var maps: [SourceMap] = []
            for element in sequence {
                let (value, map) = try convert(element, depth: depth + 1, budget: &budget)
                elements.append(value)
                maps.append(map)
            }
            return (.array(elements), .array(location, elements: maps))
        case .mapping(let mapping):
            var object = JSONObject()
            // A new key goes to the end of the object, so `maps` follows the object's order.
            var maps: [SourceMap] = []
            var merged: [Node] = []
            for (key, value) in mapping {
                // A merge key (`<<: *base`) brings in the keys of another mapping; keys written
                // here win, as YAML says and as other tools (through Yams) read it.
                if case .scalar(let name) = key, name.string == "<<", name.style == .plain {
                    if case .sequence(let sources) = value { merged += sources } else { merged.append(value) }
                    continue
                }
                let keyLocation = key.mark.map(location(of:)) ?? location
                guard case .scalar(let name) = key else {
                    throw Failure(message: "a mapping key must be a plain string, found a \(kind(of: key))", location: keyLocation)
                }
                // Yams finds most repeated keys first; this catches those it tells apart by tag (`1` and '1').
                guard !object.contains(name.string) else {
                    throw Failure(message: "duplicate key '\(MessageText.oneLine(name.string))'", location: keyLocation)
                }
                let (member, map) = try convert(value, depth: depth + 1, budget: &budget)
                object[name.string] = member
                maps.append(map)
            }
            for source in merged {
                guard case (.object(let extra), .object(_, let extraMaps)) = try convert(source, depth: depth + 1, budget: &budget) else {
                    throw Failure(message: "a merge key ('<<') must refer to a mapping or a list of mappings", location: location)
                }
                for (member, map) in zip(extra.members, extraMaps) where !object.contains(member.key) {
                    object[member.key] = member.value
                    maps.append(map)
                }
            }
            return (.object(object), .object(location, members: maps))
        case .alias:
            // Yams resolves aliases while composing; one left here is one it could not resolve.
            throw Failure(message: "an alias to an anchor that is not defined", location: location)
        }
    }

    /// libyaml's line and column: lines from 1, columns in Unicode scalars from 1, as lint counts them.
    private static func location(of mark: Mark) -> SourceLocation {
        SourceLocation(line: mark.line, column: mark.column, offset: 0)
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
            throw Failure(message: "'\(MessageText.oneLine(text))' has no JSON equivalent (JSON numbers are finite)", location: location)
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

    /// Yams puts the position, and a copy of the text around it, into its descriptions: the
    /// position goes into the failure's location instead, and the text is left out.
    private static func describe(_ error: YamlError, in text: String) -> Failure {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\($0.text) " } ?? ""
            return Failure(message: "invalid YAML: \(MessageText.oneLine(detail + problem, to: maxReasonLength))", location: location(of: mark))
        case .reader(let problem, let offset, _, _):
            // A character libyaml does not read (a control character): Yams counts its offset in
            // characters of the text; lint counts bytes.
            let byteOffset = offset.flatMap { text.index(text.startIndex, offsetBy: $0, limitedBy: text.endIndex) }
                .map { text.utf8.distance(from: text.utf8.startIndex, to: $0) } ?? 0
            return Failure(
                message: "invalid YAML: \(MessageText.oneLine(problem, to: maxReasonLength))",
                location: SourceText(Array(text.utf8), indexLines: false).location(ofOffset: byteOffset))
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams names the repeated keys (sorted) and where the first of them is first written;
            // its description would quote the whole document.
            let key = duplicates.first.map { "'\(MessageText.oneLine($0))'" } ?? "a key"
            return Failure(message: "the key \(key) appears more than once in this mapping", location: location(of: context.mark))
        case .memory:
            // Running out of memory concerns no place in the text.
            return Failure(message: "invalid YAML: not enough memory to read the document", location: nil)
        case .no, .writer, .emitter, .representer, .dataCouldNotBeDecoded:
            // Errors of writing YAML, or of decoding bytes (the text is already a String): never
            // thrown while composing, and tied to no place in the text.
            return Failure(message: "invalid YAML: \(MessageText.oneLine(error.description, to: maxReasonLength))", location: nil)
        }
    }
}
