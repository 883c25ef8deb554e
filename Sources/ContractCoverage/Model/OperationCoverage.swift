/// One operation of an OpenAPI document, and which contracts and cases cover it: `--openapi`'s
/// part of `contract coverage`.
public struct OperationCoverage: Sendable, Hashable {
    /// One documented response (`200`, `4XX`, `default`) and the cases that expect it.
    public struct Response: Sendable, Hashable {
        /// The response's key as the document writes it.
        public var key: String
        /// The cases (`pets.get/found`) whose expected status this response describes.
        public var cases: [String]

        public init(key: String, cases: [String]) {
            self.key = key
            self.cases = cases
        }

        public var isCovered: Bool { !cases.isEmpty }
    }

    /// `GET`, `POST`…
    public var method: String
    /// The path as the document writes it (`/pets/{petId}`).
    public var path: String
    public var operationID: String?
    /// Where the operation is written: the document's file, line and column.
    public var file: String
    public var line: Int
    public var column: Int
    /// The contracts on the same method and path (placeholders' names aside).
    public var contracts: [String]
    /// Every documented response, in the document's order.
    public var responses: [Response]

    public init(
        method: String, path: String, operationID: String?, file: String, line: Int, column: Int, contracts: [String], responses: [Response]
    ) {
        self.method = method
        self.path = path
        self.operationID = operationID
        self.file = file
        self.line = line
        self.column = column
        self.contracts = contracts
        self.responses = responses
    }

    /// `GET /pets/{petId}`.
    public var label: String { "\(method) \(path)" }
    public var isCovered: Bool { !contracts.isEmpty }
}
