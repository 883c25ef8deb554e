import ContractHTTP
import ContractJSON
import ContractModel
import Testing

@testable import ContractVerifier

/// How contracts become requests: merging, encoding, placeholders, and what is shown.
struct RequestBuilderTests {
    let set = Fixtures.tree
    let builder = RequestBuilder(baseURL: "http://127.0.0.1:8080/", extraHeaders: [HeaderField(name: "X-Run", value: TemplateString(literal: "nightly"))])
    let bindings = Bindings(environment: ["TOKEN": "s3cret"])

    func contract(_ id: String) throws -> Contract {
        try #require(set.contracts.first { $0.id == id })
    }

    @Test func pathValuesAreEncodedAsOneSegmentAndQueryIsInherited() throws {
        let contract = try contract("products.get")
        let request = try builder.build(contract, contract.cases[0], bindings)
        #expect(request.send.url == "http://127.0.0.1:8080/api/products/a%2Fb%20c?include=vendor")
        #expect(request.send.method == "GET")
        #expect(request.send.headers.map(\.name) == ["Accept", "Authorization", "X-Run"])
    }

    @Test func secretsAreSentButNeverShown() throws {
        let contract = try contract("products.get")
        let request = try builder.build(contract, contract.cases[0], bindings)
        #expect(request.send.headers.contains(HTTPHeader("Authorization", "Bearer s3cret")))
        #expect(request.show.headers.contains(HTTPHeader("Authorization", "Bearer ***")))
        #expect(!CurlCommand.line(for: request.show).contains("s3cret"))
    }

    @Test func aCaseRemovesEndpointHeadersAndQueryWithNull() throws {
        let contract = try contract("products.get")
        let request = try builder.build(contract, contract.cases[1], bindings)
        #expect(request.send.url == "http://127.0.0.1:8080/api/products/1")
        #expect(!request.send.headers.contains { $0.hasName("authorization") })
    }

    @Test func aWholeCapturePlaceholderKeepsTheCapturedType() throws {
        let contract = try contract("products.create")
        var bindings = self.bindings
        bindings.captures = ["sourceId": 42, "sourceName": "A"]
        let request = try builder.build(contract, contract.cases[0], bindings)
        let sent = try JSONParser().parse(try #require(request.send.body)).value
        #expect(sent == ["copyOf": 42, "name": "copy of A", "token": "s3cret"])
        #expect(request.show.body == #"{"copyOf":42,"name":"copy of A","token":"***"}"#)
        #expect(request.send.headers.contains(HTTPHeader("Content-Type", "application/json")))
    }

    @Test func curlLinesAreShellSafe() {
        let request = DisplayedRequest(
            method: "POST", url: "http://h/a?x=1&y=2", headers: [HTTPHeader("X-Quote", "it's")], body: #"{"a":"b c"}"#)
        #expect(CurlCommand.line(for: request) == #"curl -i -X POST 'http://h/a?x=1&y=2' -H 'X-Quote: it'\''s' --data-raw '{"a":"b c"}'"#)
    }
}
