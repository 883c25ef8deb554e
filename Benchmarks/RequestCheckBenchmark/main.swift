// What holding an app's request to its contract costs (docs/PERFORMANCE.md, "Request checks"):
//   swift run -c release RequestCheckBenchmark
// A typical request: a 5 KB JSON body (an order with items, formats asserted), three parameters
// (an integer path id, an integer query page, a uuid header), against a description whose body
// schema reaches two shared files. Prints, as the median of 9 rounds (min and max beside it):
//   check   RequestChecker.check alone, the request already read off the wire;
//   answer  ContractStub's whole answer (match, read the URL and headers, check, answer), through
//           the same entry ContractTransport uses; and, as the reference, the same answer to the
//           same request at an endpoint that describes nothing, so nothing is checked: the
//           difference is what the checks add to a passing request.
// ROUNDS=N and PER_ROUND=N change the counts; ONLY=check measures the check alone (for callgrind:
// the instructions of one check are the difference of two runs' totals over their counts).
@_spi(Transport) import ContractTesting
import ContractJSON
import ContractRequests
import Foundation

let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 9
let perRound = Int(ProcessInfo.processInfo.environment["PER_ROUND"] ?? "") ?? 20_000

func json(_ text: String) -> JSONValue {
    guard let value = try? JSONParser().parse(Array(text.utf8)).value else { fatalError("benchmark JSON does not parse: \(text)") }
    return value
}

let order = json(#"""
    {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
     "required": ["customer", "items", "placedAt", "currency"],
     "properties": {
       "customer": {"type": "object", "required": ["id", "email"], "properties": {
         "id": {"type": "string", "format": "uuid"}, "email": {"type": "string", "format": "email"}, "name": {"type": "string", "maxLength": 200}}},
       "items": {"type": "array", "minItems": 1, "maxItems": 500, "items": {"$ref": "line.json"}},
       "placedAt": {"type": "string", "format": "date-time"},
       "currency": {"enum": ["KRW", "USD", "EUR"]},
       "note": {"type": ["string", "null"], "maxLength": 1000}}}
    """#)
let line = json(#"""
    {"type": "object", "additionalProperties": false, "required": ["sku", "quantity", "price"],
     "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"}, "quantity": {"type": "integer", "minimum": 1},
       "price": {"$ref": "money.json"}, "gift": {"type": "boolean"}}}
    """#)
let money = json(#"{"type": "number", "minimum": 0, "multipleOf": 0.01}"#)

let description = RequestDescription(
    method: "POST", pathTemplate: "/shops/{id}/orders",
    parameters: [
        .init(location: .path, name: "id", required: true, schema: json(#"{"type": "integer", "minimum": 1}"#)),
        .init(location: .query, name: "page", required: false, schema: json(#"{"type": "integer", "minimum": 1}"#)),
        .init(location: .header, name: "X-Request-Id", required: true, schema: json(#"{"type": "string", "format": "uuid"}"#)),
    ],
    headers: [.init(name: "Accept", value: "application/json")],
    body: .init(contentType: "application/json", schema: json(#"{"$ref": "../schemas/order.json"}"#), schemaPointer: JSONPointer(tokens: ["request", "schema"])),
    schemaFiles: [
        .init(path: "schemas/line.json", document: line), .init(path: "schemas/money.json", document: money),
        .init(path: "schemas/order.json", document: order),
    ])

var items: [String] = []
var index = 0
var bodyText = ""
repeat {
    items.append(#"{"sku": "ABC-\#(String(format: "%04d", index))", "quantity": \#(index % 7 + 1), "price": \#(index % 50).25, "gift": \#(index % 3 == 0)}"#)
    index += 1
    bodyText = #"{"customer": {"id": "3f1c2a5e-9b7d-4e21-8c0a-5d6f7e8a9b0c", "email": "a@example.com", "name": "Kim"}, "#
        + #""placedAt": "2026-11-26T10:00:00Z", "currency": "KRW", "note": null, "items": [\#(items.joined(separator: ", "))]}"#
} while bodyText.utf8.count < 5 * 1024
let body = Array(bodyText.utf8)
let request = WireRequest(
    method: "POST", path: "/shops/42/orders", query: [.init(name: "page", value: "3")],
    headers: [.init(name: "X-Request-Id", value: "3f1c2a5e-9b7d-4e21-8c0a-5d6f7e8a9b0c"), .init(name: "Content-Type", value: "application/json")],
    body: body)

let checker: RequestChecker
do {
    checker = try RequestChecker(description, source: "orders/create.json")
} catch {
    fatalError("the benchmark's schemas do not compile: \(error)")
}
guard checker.check(request).isEmpty else { fatalError("the benchmark's request breaks its description: \(checker.check(request))") }

/// Microseconds per call: the median of the rounds, with the min and max.
func measure(_ body: () -> Void) -> (median: Double, min: Double, max: Double) {
    var figures: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<perRound { body() }
        figures.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(perRound))
    }
    figures.sort()
    return (figures[figures.count / 2], figures[0], figures[figures.count - 1])
}

func show(_ name: String, _ figure: (median: Double, min: Double, max: Double)) {
    print("\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%7.2f", figure.median)) µs  (min \(String(format: "%.2f", figure.min)), max \(String(format: "%.2f", figure.max)))")
}

print("request: POST /shops/42/orders?page=3, \(body.count) B JSON body (\(items.count) items), 3 parameters; \(rounds) rounds of \(perRound)")
var sink = 0
show("check (RequestChecker.check)", measure { sink &+= checker.check(request).count })
if ProcessInfo.processInfo.environment["ONLY"] == "check" { exit(0) }

// The stub's whole answer, through a fixture in format 2 written to a temporary folder.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("request-check-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }
let fixture: JSONValue = .object(JSONObject([
    .init(key: "format", value: "contract-fixture"), .init(key: "version", value: 2), .init(key: "contract", value: "orders.create"),
    .init(key: "case", value: "created"), .init(key: "source", value: "orders/create.json"), .init(key: "endpoint", value: description.json),
    .init(key: "request", value: .object(JSONObject([.init(key: "method", value: "POST"), .init(key: "pathTemplate", value: "/shops/{id}/orders")]))),
    .init(key: "response", value: .object(JSONObject([.init(key: "status", value: 201), .init(key: "body", value: json(#"{"id": 1}"#))]))),
]))
do {
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("orders.create"), withIntermediateDirectories: true)
    try Data(CanonicalJSONWriter(style: .pretty).string(fixture).utf8).write(to: folder.appendingPathComponent("orders.create/created.json"))
    var plain = fixture.objectValue ?? JSONObject()
    plain["contract"] = "orders.plain"
    plain["endpoint"] = .object(JSONObject([.init(key: "method", value: "POST"), .init(key: "pathTemplate", value: "/plain/{id}/orders")]))
    plain["request"] = .object(JSONObject([.init(key: "method", value: "POST"), .init(key: "pathTemplate", value: "/plain/{id}/orders")]))
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("orders.plain"), withIntermediateDirectories: true)
    try Data(CanonicalJSONWriter(style: .pretty).string(.object(plain)).utf8).write(to: folder.appendingPathComponent("orders.plain/created.json"))
    let stub = try ContractStub(fixtures: FixtureSet(directory: folder))
    guard let url = URL(string: "https://shop.example.com/shops/42/orders?page=3") else { fatalError("benchmark URL") }
    let headers = ["X-Request-Id": "3f1c2a5e-9b7d-4e21-8c0a-5d6f7e8a9b0c", "Content-Type": "application/json"]
    let data = Data(body)
    guard case .response(let response, _, _) = stub.answer(method: "POST", url: url, headers: headers, body: data), response.statusCode == 201 else {
        fatalError("the stub did not answer the benchmark's request with its fixture: \(stub.invalidRequests.map(\.violations))")
    }
    guard let plainURL = URL(string: "https://shop.example.com/plain/42/orders?page=3") else { fatalError("benchmark URL") }
    let reference = measure {
        if case .response(let response, _, _) = stub.answer(method: "POST", url: plainURL, headers: headers, body: data) { sink &+= response.statusCode }
    }
    let strict = measure {
        if case .response(let response, _, _) = stub.answer(method: "POST", url: url, headers: headers, body: data) { sink &+= response.statusCode }
    }
    show("answer, nothing to check (ref.)", reference)
    show("answer, checked (ContractStub)", strict)
    print("checked / reference: \(String(format: "%.2f", strict.median / reference.median))")
    guard stub.invalidRequests.isEmpty else { fatalError("a benchmark request broke its contract") }
} catch {
    fatalError("the benchmark's fixture: \(error)")
}
print("(\(sink & 1))")
