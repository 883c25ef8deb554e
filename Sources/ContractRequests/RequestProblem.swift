import ContractJSON

/// The answer to a request that breaks its contract, or that no contract describes: an RFC 9457
/// `application/problem+json` body listing every violation, so an app (and the person reading
/// its logs) sees what was wrong without a debugger. The stubs and the mock server write the same.
public enum RequestProblem {
    public static let contentType = "application/problem+json"
    /// A request that breaks its endpoint's description.
    public static let invalidRequestType = "urn:contract:problem:request-breaks-contract"
    /// A request no contract's endpoint matches.
    public static let unmatchedRequestType = "urn:contract:problem:no-contract"

    /// The body for a request that breaks `contract` (answered by its case `caseName`).
    public static func invalidRequest(method: String, path: String, contract: String, caseName: String?, violations: [RequestViolation]) -> [UInt8] {
        var members: [JSONObject.Member] = [.init(key: "contract", value: .string(contract))]
        if let caseName { members.append(.init(key: "case", value: .string(caseName))) }
        members.append(.init(key: "violations", value: .array(violations.map(json))))
        return body(
            type: invalidRequestType, title: "The request breaks its contract", status: 400,
            detail: "\(method) \(MessageText.clipped(path)) breaks \(contract): \(violations.count) violation\(violations.count == 1 ? "" : "s")",
            members: members)
    }

    /// The body for a request no endpoint takes; `nearest` says which came nearest and why not.
    public static func unmatchedRequest(method: String, path: String, nearest: String?) -> [UInt8] {
        body(
            type: unmatchedRequestType, title: "No contract describes this request", status: 404,
            detail: "\(method) \(MessageText.clipped(path)) matches no contract", members: nearest.map { [.init(key: "nearest", value: .string($0))] } ?? [])
    }

    /// A problem body of any type: `type`, `title`, `status` and `detail` first, then `members`.
    public static func body(type: String, title: String, status: Int, detail: String, members: [JSONObject.Member] = []) -> [UInt8] {
        let fields: [JSONObject.Member] = [
            .init(key: "type", value: .string(type)), .init(key: "title", value: .string(title)),
            .init(key: "status", value: .number(JSONNumber(status))), .init(key: "detail", value: .string(detail)),
        ]
        return Array(CanonicalJSONWriter(style: .compact, sortsKeys: false).string(.object(JSONObject(fields + members))).utf8)
    }

    /// One violation as the problem lists it: `in`, `name`, `pointer`, `keyword`, `message`, `schema`.
    public static func json(_ violation: RequestViolation) -> JSONValue {
        var fields: [JSONObject.Member] = [.init(key: "in", value: .string(violation.part.rawValue))]
        if let name = violation.name { fields.append(.init(key: "name", value: .string(name))) }
        fields += [
            .init(key: "pointer", value: .string(violation.pointer.description)), .init(key: "keyword", value: .string(violation.keyword)),
            .init(key: "message", value: .string(violation.message)),
        ]
        if let location = violation.schemaLocation { fields.append(.init(key: "schema", value: .string(location))) }
        return .object(JSONObject(fields))
    }
}
