import ContractHTTP
import ContractJSON
import ContractMockServer
import ContractRequests
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mock server on the example app's fixtures (the folder `contract fixtures` wrote from the
/// bundled contracts), on a free loopback port, and a real HTTP client (libcurl) to call it.
struct MockServerHarness {
    static let fixturesFolder = SharedData.packageRoot.appendingPathComponent("examples/MarketClient/Tests/MarketClientTests/Fixtures").path

    let server: MockServer
    let base: String
    let client = HTTPClient()

    /// - Parameter usage: where the server records usage; by default where the environment says.
    init(options: MockServer.Options = MockServer.Options(), usage: UsageRecorder? = MockServer.usageFromEnvironment) throws {
        server = try MockServer(fixturesIn: Self.fixturesFolder, options: options, usage: usage)
        try server.start()
        base = try #require(server.baseURL)
    }

    func send(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: String? = nil, timeout: Duration = .seconds(600)
    ) async -> Result<HTTPResponse, TransportError> {
        var options = HTTPOptions()
        options.timeout = timeout
        let request = HTTPRequest(
            method: method, url: base + path, headers: headers.map { HTTPHeader($0.0, $0.1) }, body: body.map { Array($0.utf8) })
        return await client.send(request, options: options)
    }

    /// The response, or the test's failure when the transfer failed.
    func response(_ method: String, _ path: String, headers: [(String, String)] = [], body: String? = nil) async throws -> HTTPResponse {
        try await send(method, path, headers: headers, body: body).get()
    }

    /// A JSON body's object.
    static func object(_ response: HTTPResponse) throws -> JSONObject {
        try #require(try JSONParser().parse(response.body).value.objectValue, "not a JSON object: \(String(decoding: response.body, as: UTF8.self))")
    }

    /// The bytes of the fixture's body as `contract fixtures` wrote it (compact JSON).
    static func fixtureBody(_ contract: String, _ caseName: String) throws -> [UInt8] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(fixturesFolder)/\(contract)/\(caseName).json"))
        let json = try #require(try JSONParser().parse(Array(data)).value.objectValue?["response"]?.objectValue?["body"])
        return Array(CanonicalJSONWriter(style: .compact).string(json).utf8)
    }

    static let token = ("Authorization", "Bearer example-token")
    static let json = ("Content-Type", "application/json")
}

extension Result where Success == HTTPResponse, Failure == TransportError {
    var failure: TransportError? {
        if case .failure(let error) = self { error } else { nil }
    }
}
