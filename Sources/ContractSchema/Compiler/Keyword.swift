import ContractJSON

/// One compiled keyword. An enum rather than a protocol so that applying a schema is a switch
/// over plain values, which keeps validation free of dynamic dispatch and allocation.
///
/// Every payload is plain data or a ``Borrowed`` reference, so a keyword is a trivially
/// copyable value (a test pins `_isPOD(Keyword.self)`): reading one costs no retain, release or
/// outlined copy. The compiled schema owns the objects behind the references.
enum Keyword {
    // Assertions on any instance.
    case type(JSONTypeSet)
    case enumeration(Borrowed<EnumKeyword>)
    case constant(Borrowed<Boxed<JSONValue>>)

    // Numbers.
    case multipleOf(NumberBound)
    case maximum(NumberBound)
    case exclusiveMaximum(NumberBound)
    case minimum(NumberBound)
    case exclusiveMinimum(NumberBound)

    // Strings.
    case maxLength(Int)
    case minLength(Int)
    case pattern(Borrowed<CompiledPattern>)
    /// `asserted` when the schema's own vocabularies demand it (format-assertion); otherwise the
    /// validator's option decides. Unknown formats compile to nothing: they are never asserted.
    case format(KnownFormat, asserted: Bool)
    /// Draft 7 asserts `contentEncoding` (base64) and `contentMediaType` (JSON); 2020-12 only annotates.
    case content(base64: Bool, json: Bool)

    // Arrays.
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case items(Borrowed<ItemsKeyword>)
    case contains(Borrowed<SchemaNode>, min: Int, max: Int?)
    case unevaluatedItems(Borrowed<SchemaNode>)

    // Objects.
    case maxProperties(Int)
    case minProperties(Int)
    case required(Borrowed<Boxed<[String]>>)
    case dependentRequired(Borrowed<Boxed<[(property: String, required: [String])]>>)
    case properties(Borrowed<PropertiesKeyword>)
    case propertyNames(Borrowed<SchemaNode>)
    /// `dependentSchemas`, or draft 7's `dependencies` (`isDraft7Dependencies`), for error locations.
    case dependentSchemas(Borrowed<Boxed<[(property: String, schema: Borrowed<SchemaNode>)]>>, isDraft7Dependencies: Bool)
    case unevaluatedProperties(Borrowed<SchemaNode>)

    // Applicators in place.
    case ref(Borrowed<SchemaNode>)
    case dynamicRef(Borrowed<SchemaNode>, anchor: Borrowed<Boxed<String>>?)
    case allOf(Borrowed<SchemaList>)
    case anyOf(Borrowed<SchemaList>)
    case oneOf(Borrowed<SchemaList>)
    case not(Borrowed<SchemaNode>)
    case conditional(if: Borrowed<SchemaNode>, then: Borrowed<SchemaNode>?, else: Borrowed<SchemaNode>?)
}

/// The number of `minimum`, `multipleOf` and the like: its 64-bit scaled form, which the
/// instance's usually matches so that no digits are compared, and the exact number for the rest.
struct NumberBound {
    let scaled: (significand: Int64, exponent: Int)?
    let exact: Borrowed<Boxed<JSONNumber>>
}

/// An immutable value behind a reference, so that a ``Keyword`` can carry it as a ``Borrowed``.
final class Boxed<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// `enum`, with its strings also as UTF-8 bytes: a string instance (the usual case) is compared
/// byte by byte with those alone.
final class EnumKeyword: Sendable {
    let values: [JSONValue]
    let strings: [[UInt8]]
    let others: [JSONValue]

    init(_ values: [JSONValue]) {
        self.values = values
        strings = values.compactMap { $0.stringValue.map { Array($0.utf8) } }
        others = values.filter { $0.stringValue == nil }
    }

    func contains(_ instance: Int, in doc: TapeView) -> Bool {
        if doc.kind(instance) == .string {
            let bytes = doc.utf8(instance)
            return strings.indices.contains { ByteNameTable.same(strings[$0], bytes) }
        }
        return others.indices.contains { doc.equals(instance, others[$0]) }
    }
}

/// The subschemas of `allOf`, `anyOf` or `oneOf`.
typealias SchemaList = Boxed<[Borrowed<SchemaNode>]>

/// 2020-12 `prefixItems` with `items` for the rest, or draft 7's `items` array with `additionalItems`.
/// Subschemas are borrowed: the compiled schema owns every node.
final class ItemsKeyword: Sendable {
    let prefix: [Borrowed<SchemaNode>]
    let rest: Borrowed<SchemaNode>?
    let prefixKeyword: String
    let restKeyword: String

    init(prefix: [Borrowed<SchemaNode>], rest: Borrowed<SchemaNode>?, prefixKeyword: String, restKeyword: String) {
        self.prefix = prefix
        self.rest = rest
        self.prefixKeyword = prefixKeyword
        self.restKeyword = restKeyword
    }
}

/// `properties`, `patternProperties` and `additionalProperties` applied together, since the
/// last depends on the other two. Parallel arrays of borrowed references, so that the member
/// loop reads them without reference counting.
final class PropertiesKeyword: Sendable {
    let names: [String]
    let schemas: [Borrowed<SchemaNode>]
    let patterns: [Borrowed<CompiledPattern>]
    let patternSchemas: [Borrowed<SchemaNode>]
    let additional: Borrowed<SchemaNode>?
    /// `required` names, when every one is also in `names`: the member loop then counts them
    /// instead of searching the object once per name.
    let required: [String]
    let isRequired: [Bool]
    /// Keeps the borrowed patterns alive.
    private let ownedPatterns: [CompiledPattern]
    private let nameBytes: [[UInt8]]
    private let byteTable: ByteNameTable?

    init(
        named: [(name: String, schema: Borrowed<SchemaNode>)], patterns: [(pattern: CompiledPattern, schema: Borrowed<SchemaNode>)],
        additional: Borrowed<SchemaNode>?, required: [String] = []
    ) {
        names = named.map(\.name)
        schemas = named.map(\.schema)
        ownedPatterns = patterns.map(\.pattern)
        self.patterns = ownedPatterns.map(Borrowed.init)
        patternSchemas = patterns.map(\.schema)
        self.additional = additional
        self.required = required
        // By bytes, as instance keys are matched: `String ==` takes `é` and `e` + U+0301 for one name.
        isRequired = names.map { name in required.contains { $0.utf8.elementsEqual(name.utf8) } }
        nameBytes = names.map { Array($0.utf8) }
        byteTable = names.count > 6 ? ByteNameTable(nameBytes) : nil
    }

    /// The position of the property named `key`, by its bytes (as an instance's key is found).
    func position(named key: String) -> Int? {
        var key = key
        return key.withUTF8 { position(utf8: $0) }
    }

    /// The position of a property given by its UTF-8 bytes, trying `guess` first: instances
    /// usually list their members in the schema's order, so the name after the last one found is
    /// nearly always the next key, and one comparison replaces hashing the key.
    @inline(__always) func position(utf8 key: UnsafeBufferPointer<UInt8>, guess: Int) -> Int? {
        if guess < names.count && ByteNameTable.same(nameBytes[guess], key) { return guess }
        return position(utf8: key)
    }

    /// The position of a property given by its UTF-8 bytes (an instance's key, read in place).
    func position(utf8 key: UnsafeBufferPointer<UInt8>) -> Int? {
        if let table = byteTable { return table.position(of: key, names: nameBytes) }
        for position in nameBytes.indices where ByteNameTable.same(nameBytes[position], key) { return position }
        return nil
    }

    /// Whether a pattern of `patternProperties` matches the name.
    func matchesPattern(utf8 key: UnsafeBufferPointer<UInt8>) -> Bool {
        patterns.contains { $0.with { $0.matches(utf8: key) } }
    }

    /// The same keyword, also checking `names` (all of which are declared properties).
    func merging(required names: [String]) -> PropertiesKeyword {
        PropertiesKeyword(
            named: Array(zip(self.names, schemas)), patterns: Array(zip(ownedPatterns, patternSchemas)), additional: additional,
            required: names)
    }
}

/// Property names by their UTF-8 bytes in an open-addressing table (FNV-1a), built once at
/// compile time so that an instance's key, read in place from the tape, is found without
/// creating a `String`.
struct ByteNameTable: Sendable {
    private let slots: [Int32]
    private let mask: Int

    init(_ names: [[UInt8]]) {
        var capacity = 8
        while capacity < names.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (position, name) in names.enumerated() {
            var slot = name.withUnsafeBufferPointer(Self.hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(position + 1)
        }
        self.slots = slots
        mask = capacity - 1
    }

    func position(of key: UnsafeBufferPointer<UInt8>, names: [[UInt8]]) -> Int? {
        var slot = Self.hash(key) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if Self.same(names[entry - 1], key) { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Byte equality, lengths first: most names differ in length.
    @inline(__always) static func same(_ name: [UInt8], _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == key.count else { return false }
        return name.withUnsafeBufferPointer { name in
            guard let a = name.baseAddress, let b = key.baseAddress else { return true }  // both empty
            return sameBytes(UnsafeRawPointer(a), UnsafeRawPointer(b), count: name.count)
        }
    }

    /// Equality of `count` bytes, eight at a time: property names are mostly 2 to 16 bytes, and a
    /// byte-by-byte loop made comparing them the costliest part of matching a key.
    @inline(__always) static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
                return false
            }
            offset += 8
        }
        if offset + 4 <= count {
            guard a.loadUnaligned(fromByteOffset: offset, as: UInt32.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt32.self) else {
                return false
            }
            offset += 4
        }
        while offset < count {
            guard a.load(fromByteOffset: offset, as: UInt8.self) == b.load(fromByteOffset: offset, as: UInt8.self) else { return false }
            offset += 1
        }
        return true
    }

    /// FNV-1a over a name's bytes, folded: the table's slots, and the streaming check's print of a
    /// member name (``StreamingValidator``).
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
