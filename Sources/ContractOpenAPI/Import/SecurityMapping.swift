import ContractJSON
import ContractModel

/// An environment variable a run needs, for a security scheme of the document.
public struct SecurityVariable: Sendable, Hashable {
    public var name: String
    public var scheme: String
    /// What the variable holds and where it is sent.
    public var usage: String
}

/// How an operation authenticates, as request headers and query parameters with `${env:…}`.
struct Credentials {
    var headers: [(String, String)] = []
    var query: [(String, String)] = []
    var isEmpty: Bool { headers.isEmpty && query.isEmpty }
}

/// Security schemes to `${env:NAME}` placeholders: a bearer token, an API key in a header or the
/// query, basic credentials; OAuth 2 and OpenID Connect as a bearer token obtained beforehand.
/// Cookies and mutual TLS cannot be expressed in a contract and are skipped with a warning.
struct SecurityMapping {
    private(set) var variables: [String: SecurityVariable] = [:]
    private(set) var diagnostics: [Diagnostic] = []
    private var warned: Set<String> = []
    private var variableOfScheme: [String: String] = [:]
    private var takenVariables: Set<String> = []
    let document: OpenAPIDocument

    /// Requirements already warned about, so a document-wide one is named once.
    private var warnedUndefined: Set<JSONPointer> = []

    init(document: OpenAPIDocument) {
        self.document = document
    }

    /// The credentials of the first security requirement of the operation (or of the document
    /// when the operation has none); empty when no authentication applies.
    mutating func credentials(for operation: JSONObject, at pointer: JSONPointer) -> Credentials {
        let requirements = operation["security"] ?? document.root["security"]
        guard case .array(let alternatives)? = requirements, case .object(let first)? = alternatives.first else { return Credentials() }
        var credentials = Credentials()
        let requirementPointer = operation["security"] != nil ? pointer.appending("security").appending(0) : JSONPointer(tokens: ["security", "0"])
        for member in first {
            let schemePointer = JSONPointer(tokens: ["components", "securitySchemes", member.key])
            guard let (scheme, at) = document.resolved(document.value(at: schemePointer) ?? .null, at: schemePointer) else {
                let at = requirementPointer.appending(member.key)
                if warnedUndefined.insert(at).inserted {
                    diagnostics.append(document.warning(
                        "the security scheme '\(MessageText.clipped(member.key))' is not defined in components/securitySchemes; the requirement is read without it", at: at))
                }
                continue
            }
            let variable = variableName(for: member.key)
            let placeholder = "${env:\(variable)}"
            let type = scheme["type"]?.stringValue ?? ""
            switch (type, scheme["scheme"]?.stringValue?.lowercased(), scheme["in"]?.stringValue) {
            case ("http", "bearer", _), ("oauth2", _, _), ("openIdConnect", _, _):
                credentials.headers.append(("Authorization", "Bearer \(placeholder)"))
                record(variable, member.key, "a \(type == "http" ? "bearer" : type) access token, sent as 'Authorization: Bearer …'")
            case ("http", "basic", _):
                credentials.headers.append(("Authorization", "Basic \(placeholder)"))
                record(variable, member.key, "base64 of 'user:password', sent as 'Authorization: Basic …'")
            case ("apiKey", _, "header"):
                let name = scheme["name"]?.stringValue ?? member.key
                credentials.headers.append((name, placeholder))
                record(variable, member.key, "an API key, sent in the header '\(name)'")
            case ("apiKey", _, "query"):
                let name = scheme["name"]?.stringValue ?? member.key
                credentials.query.append((name, placeholder))
                record(variable, member.key, "an API key, sent as the query parameter '\(name)'")
            default:
                if warned.insert(member.key).inserted {
                    let what = type == "apiKey" ? "an API key in a cookie" : type == "http" ? "HTTP '\(scheme["scheme"]?.stringValue ?? "")' authentication" : "'\(type)'"
                    diagnostics.append(document.warning(
                        "security scheme '\(member.key)' (\(what)) cannot be expressed in a contract; requests that need it are sent without it", at: at))
                }
            }
        }
        return credentials
    }

    /// One variable per scheme: `api-key` and `apiKey` both read as `API_KEY`, so the second
    /// gets `API_KEY_2`.
    private mutating func variableName(for scheme: String) -> String {
        if let known = variableOfScheme[scheme] { return known }
        let name = Identifiers.unique(Identifiers.environmentVariable(scheme), separator: "_", taken: &takenVariables)
        variableOfScheme[scheme] = name
        return name
    }

    private mutating func record(_ variable: String, _ scheme: String, _ usage: String) {
        variables[variable] = SecurityVariable(name: variable, scheme: scheme, usage: usage)
    }
}
