import ContractJSON

/// A value of a contract file together with its JSON Pointer, as the decoder walks it.
struct Field {
    var value: JSONValue
    var pointer: JSONPointer

    func member(_ key: String) -> Field? {
        value.objectValue?[key].map { Field(value: $0, pointer: pointer.appending(key)) }
    }

    var elements: [Field] {
        (value.arrayValue ?? []).enumerated().map { Field(value: $0.element, pointer: pointer.appending($0.offset)) }
    }

    var members: [(key: String, field: Field)] {
        (value.objectValue?.members ?? []).map { ($0.key, Field(value: $0.value, pointer: pointer.appending($0.key))) }
    }
}
