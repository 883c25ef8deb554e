/// The errors the API answers with. Every one is sent as `contracts/schemas/error.json`:
/// `{"error": {"code": "...", "message": "..."}}`, with a snake_case code clients can branch on.
struct APIError: Error, Sendable, Equatable {
    var status: Int
    var code: String
    var message: String

    static func invalidProduct(_ message: String) -> APIError {
        APIError(status: 400, code: "invalid_product", message: message)
    }

    static func invalidPage(_ message: String) -> APIError {
        APIError(status: 400, code: "invalid_page", message: message)
    }

    static func notFound(_ id: String) -> APIError {
        APIError(status: 404, code: "not_found", message: "no product with id \(id)")
    }

    static let missingToken = APIError(status: 401, code: "unauthorized", message: "a bearer token is required")
    static let invalidToken = APIError(status: 401, code: "invalid_token", message: "the bearer token is not valid")
    static let bodyTooLarge = APIError(status: 413, code: "body_too_large", message: "the body must be at most 64 KiB")
}

/// The body of an error response.
struct ErrorBody: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
    }

    var error: Detail

    init(_ error: APIError) {
        self.error = Detail(code: error.code, message: error.message)
    }
}
