import ContractJSON

/// A schema's verdict taken while a document is parsed, for schemas made only of the keywords that
/// need nothing but the value at hand: `type`, `properties` with `required` and
/// `additionalProperties`, `items`, `$ref`, `allOf`, `enum` and `const` of strings, numbers,
/// booleans and null, the bounds of numbers, strings, arrays and objects, `pattern` and `format`.
/// It builds no tape, so a body is read once where parsing and then validating read it twice.
///
/// It answers only "valid, and no object repeats a member name". Whenever it cannot say so (a
/// failing value, a repeated name, a document too deep, bytes that are not JSON) it answers false,
/// and the caller takes the usual way (``JSONParser/parseTape(_:)`` and ``JSONSchema/isValid(_:)-(JSONTape)``),
/// which also says what is wrong. So the two may differ only where the usual way says "valid" and
/// this says false: never the other way, which the tests check against the JSON Schema test suite.
///
/// Made by ``JSONSchema/streamingValidator()``, which returns nil for a schema that reaches any
/// other keyword (`anyOf`, `if`, `uniqueItems`, `patternProperties`…).
public struct StreamingValidator: Sendable {
    /// Keeps the compiled graph (and the keyword objects the nodes borrow) alive.
    private let schema: JSONSchema
    private let plan: StreamPlan
    private let assertsFormats: Bool

    /// Containers open at once, past which the usual way decides. The evaluator's own limit counts
    /// schemas applied (a thousand). On its verdict path, the only one a streamed schema meets
    /// (``JSONSchema/streamingValidator()`` refuses one that keeps a dynamic scope), a `$ref`-only
    /// schema is read through and a `$ref` beside other keywords, or an `allOf` member, is one more
    /// a level, so a plan whose values each apply at most `n` schemas streams 900 / `n` levels.
    static let maxDepth = 256
    private let maxFrames: Int
    /// Schemas reached from the root, past which a schema is not streamed (its compile already
    /// took what such a graph costs; walking it for each schema planned would add up).
    static let maxNodes = 4_096

    init?(_ schema: JSONSchema, root: SchemaNode) {
        var builder = StreamPlanBuilder()
        guard let rootIndex = builder.index(of: root), rootIndex == 0, builder.plan.nodes.count <= Self.maxNodes else { return nil }
        self.schema = schema
        plan = builder.plan
        assertsFormats = schema.assertsFormats
        maxFrames = min(Self.maxDepth, 900 / builder.applications - 1)
    }

    /// Whether `bytes` is JSON that the schema accepts, with no member name twice in one object.
    /// False also means "not known": ask the tape.
    public func accepts(_ bytes: [UInt8]) -> Bool {
        plan.nodes.withUnsafeBufferPointer { nodes in
            plan.scalars.withUnsafeBufferPointer { scalars in
                plan.children.withUnsafeBufferPointer { children in
                    var sink = StreamingSink(nodes: nodes, scalars: scalars, children: children, assertsFormats: assertsFormats, maxFrames: maxFrames)
                    do {
                        try JSONParser(tracksLocations: false).read(bytes, into: &sink)
                    } catch {
                        return false
                    }
                    return !sink.failed
                }
            }
        }
    }
}

/// The schemas reachable from a root, laid out flat: the nodes, and the keywords and property
/// schemas they point into by range, so a node is plain data and reading one costs no retain.
struct StreamPlan {
    var nodes: [StreamNode] = []
    /// The keywords a string or number is held to (`enum`, `const`, bounds, `pattern`, `format`), node after node.
    var scalars: [Keyword] = []
    /// The plan index of each property's schema, node after node, by position in its `properties`.
    var children: [Int32] = []
    /// The `properties` keywords made for nodes where several apply at once (``StreamNode``
    /// borrows them, as it borrows the compiled ones).
    var kept: [PropertiesKeyword] = []
}

/// One schema of the plan: its keywords and those of the schemas its `$ref`s reach, which apply
/// to the same value, laid out for the parse's events.
struct StreamNode {
    var alwaysInvalid = false
    /// The `type` keywords met (both must hold); a third makes the schema not stream.
    var type: JSONTypeSet?
    var otherType: JSONTypeSet?
    /// Where its keywords are in ``StreamPlan/scalars``.
    var scalarStart: Int32 = 0
    var scalarCount: Int32 = 0
    var hasValueList = false
    var properties: Borrowed<PropertiesKeyword>?
    /// Where its property schemas are in ``StreamPlan/children``.
    var childStart: Int32 = 0
    /// The plan index of `additionalProperties`' schema; `unconstrained` without one.
    var additional: Int32 = StreamNode.unconstrained
    /// The plan index of `items`' schema; `unconstrained` without one.
    var items: Int32 = StreamNode.unconstrained
    var minItems = 0
    var maxItems = Int.max
    var minProperties = 0
    var maxProperties = Int.max

    /// No schema: any value, though its objects are still read for repeated names.
    static let unconstrained: Int32 = -1
}

/// Lays out the schemas reachable from a root as ``StreamNode``s, or fails on the first keyword
/// a parse cannot check as it goes.
///
/// A plan node stands for the set of schemas that apply to one value: a schema, with those its
/// `$ref`s and `allOf` name; and, inside an object, the schemas each of those gives a member
/// (its `properties` entry, else its `additionalProperties`). So `allOf` of object schemas, the
/// usual composition of an OpenAPI document, is one node whose names are the union of theirs.
private struct StreamPlanBuilder {
    var plan = StreamPlan()
    /// The most schemas the evaluator applies to one value of the plan, nested: one, and one more
    /// for each `$ref` beside other keywords or `allOf` member followed from it.
    private(set) var applications = 1
    /// Plan indices by the set of schemas they stand for (their identities, sorted).
    private var indices: [[ObjectIdentifier]: Int32] = [:]
    /// Schemas being laid out, one inside another: a deeper plan is not made (the walk recurses,
    /// and a tree's files may chain references far beyond any real schema's nesting).
    private var nesting = 0
    private static let maxNesting = 128
    /// Steps taken to lay the plan out (keywords gathered, names merged, schemas in a set), past
    /// which the schema does not stream: nodes are sets of schemas, and a schema made for it can
    /// make many large sets that each gather the same closure again (found by review: 212 s for
    /// one plan). Real response schemas take a few thousand.
    private var work = 0
    private static let maxWork = 2_000_000

    /// What one node gathers before it is laid out: its keywords and property schemas go into
    /// the plan's arrays in one piece once the schemas they reach have their own indices.
    private struct Gathered {
        var node = StreamNode()
        var types: [JSONTypeSet] = []
        var scalars: [Keyword] = []
        var properties: [PropertiesKeyword] = []
        /// Each `items` schema (all apply to every element).
        var items: [SchemaNode] = []
    }

    mutating func index(of node: SchemaNode) -> Int32? {
        index(of: [node])
    }

    /// The plan index of the value all of `schemas` apply to (made on first use);
    /// ``StreamNode/unconstrained`` for none; nil when one of them, or a schema they reach, cannot stream.
    mutating func index(of schemas: [SchemaNode]) -> Int32? {
        work += schemas.count
        guard work <= Self.maxWork else { return nil }
        var resolved: [ObjectIdentifier: SchemaNode] = [:]
        for schema in schemas {
            let target = schema.referenceTarget?.object ?? schema
            resolved[ObjectIdentifier(target)] = target
        }
        guard !resolved.isEmpty else { return StreamNode.unconstrained }
        let key = resolved.keys.sorted()
        if let known = indices[key] { return known }
        guard plan.nodes.count < StreamingValidator.maxNodes, nesting < Self.maxNesting else { return nil }
        nesting += 1
        defer { nesting -= 1 }
        let index = Int32(plan.nodes.count)
        indices[key] = index
        plan.nodes.append(StreamNode())
        var gathered = Gathered()
        for identity in key {
            var visited: Set<ObjectIdentifier> = []
            guard let schema = resolved[identity], add(schema, to: &gathered, visited: &visited) else { return nil }
        }
        var types: [JSONTypeSet] = []
        for type in gathered.types where !types.contains(type) { types.append(type) }
        guard types.count <= 2 else { return nil }
        var laidOut = gathered.node
        laidOut.type = types.first
        laidOut.otherType = types.count > 1 ? types[1] : nil
        var children: [Int32] = []
        if !gathered.properties.isEmpty {
            guard let merged = merge(gathered.properties, children: &children, additional: &laidOut.additional) else { return nil }
            laidOut.properties = merged
        }
        if !gathered.items.isEmpty {
            guard let items = self.index(of: gathered.items) else { return nil }
            laidOut.items = items
        }
        laidOut.scalarStart = Int32(plan.scalars.count)
        laidOut.scalarCount = Int32(gathered.scalars.count)
        laidOut.hasValueList = gathered.scalars.contains { keyword in
            switch keyword {
            case .enumeration, .constant: true
            default: false
            }
        }
        laidOut.childStart = Int32(plan.children.count)
        plan.scalars += gathered.scalars
        plan.children += children
        plan.nodes[Int(index)] = laidOut
        return index
    }

    /// The `properties` keywords that apply to one object as one: every name any of them
    /// declares, each held to what each keyword gives it (its own schema there, else that
    /// keyword's `additionalProperties`), the names any requires, and for other names every
    /// `additionalProperties`. One keyword is used as compiled; several make a keyword the plan keeps.
    private mutating func merge(_ keywords: [PropertiesKeyword], children: inout [Int32], additional: inout Int32) -> Borrowed<PropertiesKeyword>? {
        // One keyword: its names as compiled, in its order, so the position the sink finds a
        // member at is its child's (names deduplicated here would shift them).
        if keywords.count == 1, let only = keywords.first {
            guard only.names.count <= 64 else { return nil }
            work += only.names.count
            guard work <= Self.maxWork else { return nil }
            for schema in only.schemas {
                guard let child = index(of: [schema.object]) else { return nil }
                children.append(child)
            }
            guard let other = index(of: only.additional.map { [$0.object] } ?? []) else { return nil }
            additional = other
            return Borrowed(only)
        }
        // Names by their bytes, as members are matched: as strings, `é` and `e` + U+0301 are one.
        var names: [String] = []
        var seen: Set<[UInt8]> = []
        for keyword in keywords {
            for name in keyword.names where seen.insert(Array(name.utf8)).inserted { names.append(name) }
        }
        // Names seen are one word's bits.
        guard names.count <= 64 else { return nil }
        work += names.count * keywords.count
        guard work <= Self.maxWork else { return nil }
        for name in names {
            var schemas: [SchemaNode] = []
            for keyword in keywords {
                if let position = keyword.position(named: name) {
                    schemas.append(keyword.schemas[position].object)
                } else if let other = keyword.additional {
                    schemas.append(other.object)
                }
            }
            guard let child = index(of: schemas) else { return nil }
            children.append(child)
        }
        guard let other = index(of: keywords.compactMap { $0.additional?.object }) else { return nil }
        additional = other
        var required: [String] = []
        var requiredBytes: Set<[UInt8]> = []
        for keyword in keywords {
            for name in keyword.required where requiredBytes.insert(Array(name.utf8)).inserted { required.append(name) }
        }
        // The sink reads names and which are required; the schemas are the plan's children, so
        // any schema stands in for each (a keyword with names has one).
        var named: [(name: String, schema: Borrowed<SchemaNode>)] = []
        if let placeholder = keywords.lazy.compactMap(\.schemas.first).first { named = names.map { ($0, placeholder) } }
        guard named.count == names.count else { return nil }
        let merged = PropertiesKeyword(named: named, patterns: [], additional: nil, required: required)
        plan.kept.append(merged)
        return Borrowed(merged)
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: false
        default: true
        }
    }

    /// Adds the keywords of `node` (and of the schemas its `$ref`s and `allOf` name) to `gathered`.
    private mutating func add(_ node: SchemaNode, to gathered: inout Gathered, visited: inout Set<ObjectIdentifier>) -> Bool {
        guard visited.insert(ObjectIdentifier(node)).inserted else { return true }
        // A chain of references beside other keywords longer than any real schema writes.
        guard visited.count <= Self.maxNesting else { return false }
        applications = max(applications, visited.count)
        switch node.body {
        case .alwaysValid:
            return true
        case .alwaysInvalid:
            gathered.node.alwaysInvalid = true
            return true
        case .keywords(let keywords):
            work += keywords.count
            guard work <= Self.maxWork else { return false }
            for keyword in keywords {
                guard add(keyword, to: &gathered, visited: &visited) else { return false }
            }
            return true
        }
    }

    private mutating func add(_ keyword: Keyword, to gathered: inout Gathered, visited: inout Set<ObjectIdentifier>) -> Bool {
        switch keyword {
        case .type(let types):
            gathered.types.append(types)
        case .enumeration(let values):
            // Strings, numbers, booleans and null are compared as they come; an array or object
            // in the list would need the whole value.
            guard values.object.others.allSatisfy(Self.isScalar) else { return false }
            gathered.scalars.append(keyword)
        case .constant(let value):
            guard Self.isScalar(value.object.value) else { return false }
            gathered.scalars.append(keyword)
        case .multipleOf, .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum, .maxLength, .minLength, .pattern, .format:
            gathered.scalars.append(keyword)
        case .maxItems(let limit):
            gathered.node.maxItems = min(gathered.node.maxItems, limit)
        case .minItems(let limit):
            gathered.node.minItems = max(gathered.node.minItems, limit)
        case .maxProperties(let limit):
            gathered.node.maxProperties = min(gathered.node.maxProperties, limit)
        case .minProperties(let limit):
            gathered.node.minProperties = max(gathered.node.minProperties, limit)
        case .items(let items):
            let items = items.object
            guard items.prefix.isEmpty else { return false }
            if let rest = items.rest { gathered.items.append(rest.object) }
        case .properties(let properties):
            guard properties.object.patterns.isEmpty else { return false }
            gathered.properties.append(properties.object)
        case .ref(let target):
            return add(target.object, to: &gathered, visited: &visited)
        case .allOf(let members):
            for member in members.object.value {
                guard add(member.object, to: &gathered, visited: &visited) else { return false }
            }
        default:
            return false
        }
        return true
    }
}

/// The parse's events checked against the plan, one container frame per open array or object.
/// The plan is read through buffers of plain data: a node read costs no retain.
private struct StreamingSink: JSONSink {
    let nodes: UnsafeBufferPointer<StreamNode>
    let scalars: UnsafeBufferPointer<Keyword>
    let children: UnsafeBufferPointer<Int32>
    let assertsFormats: Bool
    let maxFrames: Int
    /// Set at the first value that fails, or anything the tape must decide.
    var failed = false
    /// The plan index for the value about to come in the innermost object (set by its key).
    private var nextInObject = StreamNode.unconstrained
    private var frames: [Frame] = []
    /// Prints of the member names no `properties` declares, for the objects still open.
    private var prints: [UInt64] = []

    private struct Frame {
        var isObject: Bool
        var node: Int32
        /// Declared properties met, by position.
        var seen: UInt64 = 0
        var requiredSeen = 0
        /// The next property position to try first (members usually come in the schema's order).
        var guess = 0
        var printsStart: Int
    }

    init(
        nodes: UnsafeBufferPointer<StreamNode>, scalars: UnsafeBufferPointer<Keyword>, children: UnsafeBufferPointer<Int32>, assertsFormats: Bool,
        maxFrames: Int
    ) {
        self.maxFrames = maxFrames
        self.nodes = nodes
        self.scalars = scalars
        self.children = children
        self.assertsFormats = assertsFormats
        frames.reserveCapacity(16)
    }

    func mayReuse() -> Bool { false }

    mutating func reuse(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool { false }

    /// The plan index of the value starting now.
    @inline(__always) private func valueNode() -> Int32 {
        // The document's root value: the plan's first node.
        guard let top = frames.last else { return 0 }
        if top.isObject { return nextInObject }
        return top.node >= 0 ? nodes[Int(top.node)].items : StreamNode.unconstrained
    }

    /// Whether a value of `type` passes the node's `type` keywords and is not refused by a `false` schema.
    @inline(__always) private static func admits(_ type: JSONTypeSet, _ plan: StreamNode) -> Bool {
        !plan.alwaysInvalid && (plan.type?.contains(type) ?? true) && (plan.otherType?.contains(type) ?? true)
    }

    mutating func beginArray(at offset: Int) -> Int {
        beginContainer(isObject: false)
    }

    mutating func endArray(_ mark: Int, count: Int, text: UnsafeBufferPointer<UInt8>) {
        guard let frame = frames.popLast() else { return }
        guard !failed, frame.node >= 0 else { return }
        let plan = nodes[Int(frame.node)]
        if count < plan.minItems || count > plan.maxItems { failed = true }
    }

    mutating func beginObject(at offset: Int) -> Int {
        beginContainer(isObject: true)
    }

    /// An array or object starts: its type against the schema (no `enum` or `const` of strings
    /// holds it), and a frame for what is in it.
    private mutating func beginContainer(isObject: Bool) -> Int {
        let node = valueNode()
        if !failed, node >= 0 {
            let plan = nodes[Int(node)]
            if !Self.admits(isObject ? .object : .array, plan) || plan.hasValueList { failed = true }
        }
        push(Frame(isObject: isObject, node: node, printsStart: prints.count))
        return 0
    }

    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, inPlace: Bool) {
        guard !failed, let top = frames.indices.last else { return }
        let node = frames[top].node
        if node >= 0 {
            let plan = nodes[Int(node)]
            if let properties = plan.properties {
                let guess = frames[top].guess
                let found = properties.with { $0.position(utf8: bytes, guess: guess) }
                if let position = found {
                    let bit = UInt64(1) << UInt64(position)
                    // A declared name twice: the tape's check says where.
                    guard frames[top].seen & bit == 0 else {
                        failed = true
                        return
                    }
                    frames[top].seen |= bit
                    frames[top].guess = position + 1
                    if properties.with({ $0.isRequired[position] }) { frames[top].requiredSeen += 1 }
                    nextInObject = children[Int(plan.childStart) + position]
                    return
                }
            }
            nextInObject = plan.additional
        } else {
            nextInObject = StreamNode.unconstrained
        }
        prints.append(Self.print(bytes))
    }

    mutating func endObject(_ mark: Int, count: Int, text: UnsafeBufferPointer<UInt8>) {
        guard let frame = frames.popLast() else { return }
        defer { if prints.count > frame.printsStart { prints.removeSubrange(frame.printsStart...) } }
        guard !failed else { return }
        if prints.count - frame.printsStart > 1, Self.repeats(prints[frame.printsStart...]) {
            failed = true
            return
        }
        guard frame.node >= 0 else { return }
        let plan = nodes[Int(frame.node)]
        let required = plan.properties?.with { $0.required.count } ?? 0
        if count < plan.minProperties || count > plan.maxProperties || frame.requiredSeen != required {
            failed = true
        }
    }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, inPlace: Bool) {
        let node = valueNode()
        guard !failed, node >= 0 else { return }
        let plan = nodes[Int(node)]
        guard Self.admits(.string, plan) else {
            failed = true
            return
        }
        let start = Int(plan.scalarStart)
        for index in start..<(start + Int(plan.scalarCount)) where !holds(scalars[index], string: bytes) {
            failed = true
            return
        }
    }

    mutating func number(_ number: JSONNumber, at offset: Int) {
        let node = valueNode()
        guard !failed, node >= 0 else { return }
        let plan = nodes[Int(node)]
        let scaled = number.scaled
        guard !plan.alwaysInvalid else {
            failed = true
            return
        }
        if plan.type != nil || plan.otherType != nil {
            let isInteger = scaled.map { $0.exponent >= 0 } ?? number.isInteger
            func admits(_ types: JSONTypeSet?) -> Bool {
                guard let types else { return true }
                return types.contains(.number) || (types.contains(.integer) && isInteger)
            }
            guard admits(plan.type), admits(plan.otherType) else {
                failed = true
                return
            }
        }
        let start = Int(plan.scalarStart)
        for index in start..<(start + Int(plan.scalarCount)) where !holds(scalars[index], number: number, scaled: scaled) {
            failed = true
            return
        }
    }

    mutating func bool(_ value: Bool, at offset: Int) {
        literal(.bool(value), .boolean)
    }

    mutating func null(at offset: Int) {
        literal(.null, .null)
    }

    /// A `true`, `false` or `null`: its type, and its place in an `enum` or `const`.
    private mutating func literal(_ value: JSONValue, _ type: JSONTypeSet) {
        let node = valueNode()
        guard !failed, node >= 0 else { return }
        let plan = nodes[Int(node)]
        guard Self.admits(type, plan) else {
            failed = true
            return
        }
        guard plan.hasValueList else { return }
        let start = Int(plan.scalarStart)
        for index in start..<(start + Int(plan.scalarCount)) {
            switch scalars[index] {
            case .enumeration(let values):
                guard values.with({ $0.others.contains(value) }) else {
                    failed = true
                    return
                }
            case .constant(let constant):
                guard constant.with({ $0.value == value }) else {
                    failed = true
                    return
                }
            default:
                break
            }
        }
    }

    private mutating func push(_ frame: Frame) {
        frames.append(frame)
        if frames.count > maxFrames { failed = true }
    }

    /// A string's keywords, as ``Evaluator/checkKeyword(_:_:_:)`` applies them.
    private func holds(_ keyword: Keyword, string bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch keyword {
        case .enumeration(let values):
            return values.with { values in values.strings.contains { ByteNameTable.same($0, bytes) } }
        case .constant(let value):
            return value.with { value in value.value.stringValue.map { $0.utf8.elementsEqual(bytes) } ?? false }
        case .maxLength(let limit):
            return bytes.count <= limit || Evaluator.codePoints(bytes) <= limit
        case .minLength(let limit):
            return bytes.count / 4 >= limit || Evaluator.codePoints(bytes) >= limit
        case .pattern(let pattern):
            return pattern.with { $0.matches(utf8: bytes) }
        case .format(let format, let asserted):
            return !(asserted || assertsFormats) || FormatChecker.isValid(utf8: bytes, format: format)
        default:
            // Number bounds do not apply to a string.
            return true
        }
    }

    /// A number's keywords, as ``Evaluator/compare(_:_:)`` and ``Evaluator/isMultiple(_:of:)`` apply them.
    private func holds(_ keyword: Keyword, number: JSONNumber, scaled: (significand: Int64, exponent: Int)?) -> Bool {
        func order(_ bound: NumberBound) -> Int {
            if let scaled, let limit = bound.scaled, let order = JSONNumber.compareScaled(scaled, limit) { return order }
            return bound.exact.with { number < $0.value ? -1 : (number == $0.value ? 0 : 1) }
        }
        func same(_ value: JSONValue) -> Bool {
            if case .number(let listed) = value { return listed == number }
            return false
        }
        switch keyword {
        case .enumeration(let values):
            return values.with { $0.others.contains(where: same) }
        case .constant(let value):
            return value.with { same($0.value) }
        case .minimum(let bound): return order(bound) >= 0
        case .maximum(let bound): return order(bound) <= 0
        case .exclusiveMinimum(let bound): return order(bound) > 0
        case .exclusiveMaximum(let bound): return order(bound) < 0
        case .multipleOf(let divisor):
            return divisor.exact.with { NumberArithmetic.isMultiple(number, of: $0.value) }
        default:
            return true
        }
    }

    /// A name's 64-bit print: two names with one print are taken for a repeat, and the tape's
    /// check decides (two different names share one about once in 2^64).
    private static func print(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        UInt64(truncatingIfNeeded: ByteNameTable.hash(bytes)) ^ UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
    }

    /// Whether two prints are equal: pairwise for the few names most objects leave undeclared, sorted for more.
    private static func repeats(_ prints: ArraySlice<UInt64>) -> Bool {
        guard prints.count > 1 else { return false }
        if prints.count <= 16 {
            for later in prints.indices.dropFirst() {
                for earlier in prints.startIndex..<later where prints[earlier] == prints[later] { return true }
            }
            return false
        }
        let sorted = prints.sorted()
        return zip(sorted, sorted.dropFirst()).contains { $0 == $1 }
    }
}
