import Foundation
import Testing

@testable import ContractTesting

/// What loading a fixture refuses, and how it says so.
struct StubFixtureLoadTests {
    static func json(body: Any) -> [String: Any] {
        [
            "contract": "products.get", "case": "found",
            "request": ["method": "GET", "pathTemplate": "/products/1"],
            "response": ["status": 200, "body": body],
        ]
    }

    /// A body that cannot be written as JSON (a NaN, which no JSON text holds but a dictionary
    /// can) is an error naming the file and the case; before, the fixture was served with no body.
    @Test func aBodyThatCannotBeWrittenIsAnErrorNamingTheCase() {
        let error = #expect(throws: FixtureLoadError.self) { try StubFixture(json: Self.json(body: ["price": Double.nan]), file: "f/found.json") }
        #expect(error?.description.hasPrefix("f/found.json: the response body of products.get/found cannot be written as JSON") == true, "\(String(describing: error))")
    }

    @Test func aBodyIsWrittenWithSortedKeys() throws {
        let fixture = try StubFixture(json: Self.json(body: ["b": 1, "a": "x/y"]), file: "f/found.json")
        #expect(fixture.body.map { String(decoding: $0, as: UTF8.self) } == #"{"a":"x/y","b":1}"#)
    }
}
