import ContractTesting
import ContractTestingOpenAPI
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A hand-written `getPet` in the shape swift-openapi-generator writes (`UniversalClient`,
/// `Converter`), so the transport is exercised as a generated `Client` calls it: the operation
/// ID, the rendered path under the server URL, JSON decoding, errors wrapped in `ClientError`.
struct GeneratedStyleClientTests {
    struct Pet: Codable, Hashable, Sendable {
        var id: Int
        var name: String
    }

    enum GetPetOutput: Hashable, Sendable {
        case ok(Pet)
        case undocumented(statusCode: Int)
    }

    struct PetClient: Sendable {
        let client: UniversalClient

        init(transport: any ClientTransport) {
            client = UniversalClient(serverURL: URL(string: "https://example.com/v1")!, transport: transport)
        }

        func getPet(id: Int) async throws -> GetPetOutput {
            let converter = client.converter
            return try await client.send(
                input: id, forOperation: "getPet",
                serializer: { id in
                    let path = try converter.renderedPath(template: "/pets/{}", parameters: [id])
                    var request = HTTPRequest(soar_path: path, method: .get)
                    request.headerFields[.accept] = "application/json"
                    return (request, nil)
                },
                deserializer: { response, body in
                    switch response.status.code {
                    case 200:
                        let contentType = converter.extractContentTypeIfPresent(in: response.headerFields)
                        _ = try converter.bestContentType(received: contentType, options: ["application/json"])
                        return .ok(try await converter.getResponseBodyAsJSON(Pet.self, from: body, transforming: { $0 }))
                    default:
                        return .undocumented(statusCode: response.status.code)
                    }
                })
        }
    }

    @Test func aGeneratedStyleClientGetsFixturesCasesAndFaults() async throws {
        let stub = try ContractStub(fixtures: ContractTransportTests.fixtures)
        let client = PetClient(transport: ContractTransport(stub: stub))
        #expect(try await client.getPet(id: 1) == .ok(Pet(id: 1, name: "Rex")))
        #expect(stub.requests.last?.url.absoluteString == "https://example.com/v1/pets/1")
        #expect(stub.requests.last?.headers["Accept"] == "application/json")

        try ContractTransportTests.choose(stub, "getPet", "not-found")
        #expect(try await client.getPet(id: 1) == .undocumented(statusCode: 404))
        try ContractTransportTests.choose(stub, "getPet", "found")

        try stub.inject(.undecodableBody, for: "getPet")
        do {
            _ = try await client.getPet(id: 1)
            Issue.record("expected decoding to fail")
        } catch let error as ClientError {
            #expect(error.operationID == "getPet")
            #expect(error.underlyingError is DecodingError)
        }

        stub.removeFaults()
        stub.inject(.error(.timedOut))
        do {
            _ = try await client.getPet(id: 1)
            Issue.record("expected the transport to fail")
        } catch let error as ClientError {
            #expect((error.underlyingError as? URLError)?.code == .timedOut)
        }
        #expect(stub.requests.count == 4)
    }
}
