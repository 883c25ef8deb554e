import ContractJSON

/// A compiled schema: its keywords ready to apply, its place for error locations, and its
/// resource for `$dynamicRef`. Nodes form a graph (references may loop), so they are classes,
/// filled in once by the compiler and never mutated afterwards; that is why sharing them
/// across threads is safe.
final class SchemaNode: @unchecked Sendable {
    enum Body {
        case alwaysValid
        case alwaysInvalid
        /// Owned by the node (see ``setKeywords(_:)``): a buffer rather than an array, so that
        /// reading the body during validation costs no reference counting.
        case keywords(UnsafeBufferPointer<Keyword>)
    }

    private(set) var body: Body = .alwaysValid
    /// The schema's document and where in it: kept apart, as the compiler's key for the node
    /// holds them (sharing their storage), and joined only for an error's
    /// `absoluteKeywordLocation`. Joined up front, they were a string of a hundred bytes or so
    /// for every node: 7 MB of a large imported tree's 63 MB while it was linted.
    private let document: String
    private let pointer: JSONPointer
    /// `uri#pointer` of the schema, for `absoluteKeywordLocation`.
    var absoluteLocation: String { document + pointer.uriFragment }
    /// The resource the schema belongs to: the dynamic scope is a list of these.
    let resource: SchemaResourceInfo
    /// True when this node itself holds `unevaluatedProperties` or `unevaluatedItems`, so its
    /// in-place subschemas must report what they evaluated.
    var needsAnnotations = false
    /// When the schema is only `{"$ref": …}`, the schema at the end of that chain of references:
    /// a verdict without error paths goes straight there, one schema applied instead of several.
    /// Set by the compiler once the whole graph is built (chains of references cannot loop: such
    /// cycles are compile problems).
    var referenceTarget: Borrowed<SchemaNode>?

    init(document: String, pointer: JSONPointer, resource: SchemaResourceInfo) {
        self.document = document
        self.pointer = pointer
        self.resource = resource
    }

    deinit {
        if case .keywords(let keywords) = body { keywords.deallocate() }
    }

    /// Sets the body to `value` or `false`. Called once per node, by the compiler.
    func setBoolean(_ value: Bool) {
        body = value ? .alwaysValid : .alwaysInvalid
    }

    /// Sets the body to `keywords`, copied into storage the node owns. Called once per node, by the compiler.
    func setKeywords(_ keywords: [Keyword]) {
        let storage = UnsafeMutableBufferPointer<Keyword>.allocate(capacity: keywords.count)
        _ = storage.initialize(from: keywords)
        body = .keywords(UnsafeBufferPointer(storage))
    }
}

/// A schema resource (a document root or a subschema with `$id`) and its `$dynamicAnchor`s.
final class SchemaResourceInfo: @unchecked Sendable {
    let uri: String
    /// Filled by the compiler when `$dynamicRef` needs it.
    /// Not owning: nodes point back to their resource, and the compiled schema owns every node.
    var dynamicAnchors: [String: Borrowed<SchemaNode>] = [:]

    init(uri: String) {
        self.uri = uri
    }
}

/// The JSON types of the `type` keyword as a bit set.
struct JSONTypeSet: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = JSONTypeSet(rawValue: 1 << 0)
    static let boolean = JSONTypeSet(rawValue: 1 << 1)
    static let object = JSONTypeSet(rawValue: 1 << 2)
    static let array = JSONTypeSet(rawValue: 1 << 3)
    static let number = JSONTypeSet(rawValue: 1 << 4)
    static let string = JSONTypeSet(rawValue: 1 << 5)
    static let integer = JSONTypeSet(rawValue: 1 << 6)

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "object": self = .object
        case "array": self = .array
        case "number": self = .number
        case "string": self = .string
        case "integer": self = .integer
        default: return nil
        }
    }

    func contains(typeOf value: JSONValue) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .object: contains(.object)
        case .array: contains(.array)
        case .string: contains(.string)
        case .number(let number): contains(.number) || (contains(.integer) && number.isInteger)
        }
    }

    /// `integer or string`, for messages.
    var names: String {
        let all: [(JSONTypeSet, String)] = [
            (.null, "null"), (.boolean, "boolean"), (.object, "object"), (.array, "array"), (.number, "number"),
            (.string, "string"), (.integer, "integer"),
        ]
        let names = all.filter { contains($0.0) }.map(\.1)
        guard names.count > 1, let last = names.last else { return names.first ?? "nothing" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
