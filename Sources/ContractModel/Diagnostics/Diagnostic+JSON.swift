import ContractJSON

extension Diagnostic {
    /// The machine-readable form used by `--format json`.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["file"] = file.map(JSONValue.string) ?? .null
        object["line"] = location.map { JSONValue.number(JSONNumber($0.line)) } ?? .null
        object["column"] = location.map { JSONValue.number(JSONNumber($0.column)) } ?? .null
        object["severity"] = .string(severity.rawValue)
        object["message"] = .string(message)
        object["pointer"] = pointer.map { JSONValue.string($0.description) } ?? .null
        return .object(object)
    }
}
