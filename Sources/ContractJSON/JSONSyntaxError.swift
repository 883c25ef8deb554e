/// Why a document is not JSON, and where: thrown by ``JSONParser``.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was expected and what was found, e.g. `expected ',' or ']' after an array element, found '}'`.
    public var message: String
    public var location: SourceLocation

    public init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(message)" }
}
