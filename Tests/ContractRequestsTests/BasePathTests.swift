import ContractJSON
import ContractRequests
import Testing

/// A request routed by an OpenAPI client's operation may carry its base URL's path before the
/// template (`/v1/pets/abc` for `/pets/{petId}`): its path parameters are still held to their schemas.
struct BasePathTests {
    static let checker = try! RequestChecker(
        RequestDescription(method: "GET", pathTemplate: "/pets/{petId}", parameters: [
            .init(location: .path, name: "petId", required: true, schema: .object(JSONObject([.init(key: "type", value: "integer")]))),
        ]), source: "getPet.json")

    @Test func aPathParameterUnderABasePathIsChecked() {
        #expect(Self.checker.check(WireRequest(method: "GET", path: "/v1/pets/7")).isEmpty)
        let shown = Self.checker.check(WireRequest(method: "GET", path: "/v1/pets/abc")).map(\.description)
        #expect(shown.count == 1 && shown.first?.hasPrefix("path parameter 'petId': expected integer, found string 'abc' [type]") == true, "\(shown)")
    }
}
