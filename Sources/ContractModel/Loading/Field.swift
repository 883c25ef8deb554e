import ContractJSON

/// A value of a contract file together with its JSON Pointer, as the decoder walks it.
///
/// The pointer is kept as the container's and the value's token in it, and made whole only when
/// asked for (a message, or a place the model keeps): a large contract has a dozen values a case,
/// and a pointer made for each was a good part of decoding it.
struct Field {
    var value: JSONValue
    private var parent: JSONPointer
    private var token: String?

    init(value: JSONValue, pointer: JSONPointer) {
        self.value = value
        parent = pointer
        token = nil
    }

    /// The value at `token` in the container whose pointer is `parent`.
    init(value: JSONValue, in parent: JSONPointer, at token: String) {
        self.value = value
        self.parent = parent
        self.token = token
    }

    var pointer: JSONPointer {
        token.map { parent.appending($0) } ?? parent
    }

    func member(_ key: String) -> Field? {
        value.objectValue?[key].map { Field(value: $0, in: pointer, at: key) }
    }

    var elements: [Field] {
        let base = pointer
        return (value.arrayValue ?? []).enumerated().map { Field(value: $0.element, in: base, at: String($0.offset)) }
    }

    var members: [(key: String, field: Field)] {
        let base = pointer
        return (value.objectValue?.members ?? []).map { ($0.key, Field(value: $0.value, in: base, at: $0.key)) }
    }
}

/// The members of an object with fixed keys that ``DocumentDecoder/object(_:_:allowed:required:)``
/// accepted, in document order: a handful, so found by a look along them (a dictionary per
/// object was a good part of decoding a large contract).
struct KnownFields {
    private var members: [(key: String, field: Field)] = []

    init(capacity: Int = 0) {
        members.reserveCapacity(capacity)
    }

    var count: Int { members.count }
    var isEmpty: Bool { members.isEmpty }

    subscript(key: String) -> Field? {
        members.first { $0.key == key }?.field
    }

    mutating func append(_ key: String, _ field: Field) {
        members.append((key, field))
    }
}
