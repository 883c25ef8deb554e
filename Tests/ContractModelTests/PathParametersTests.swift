import ContractJSON
import ContractModel
import Foundation
import Testing

/// Path parameters are read and written as a dictionary was, kept as a sorted array (a one-entry
/// dictionary was 152 bytes a case); and a query a later case writes again is decoded once.
struct PathParametersTests {
    @Test func theyReadWriteAndCompareAsADictionary() throws {
        var parameters: PathParameters = ["shop": TemplateString(literal: "s1"), "id": TemplateString(literal: "7")]
        #expect(parameters.keys == ["id", "shop"])
        #expect(parameters["id"] == TemplateString(literal: "7"))
        #expect(parameters["missing"] == nil)
        parameters["id"] = TemplateString(literal: "8")
        parameters["aisle"] = TemplateString(literal: "3")
        #expect(parameters.keys == ["aisle", "id", "shop"])
        #expect(parameters.values.map(\.description) == ["3", "8", "s1"])
        parameters["shop"] = nil
        parameters["never"] = nil
        #expect(parameters.keys == ["aisle", "id"])
        // Written in another order, the same parameters: equal, and hashed alike.
        let other = PathParameters(["id": TemplateString(literal: "8"), "aisle": TemplateString(literal: "3")])
        #expect(parameters == other)
        #expect(Set([parameters, other]).count == 1)
        #expect(PathParameters() == [:])
        #expect(PathParameters().isEmpty)
        // Repeated in a literal, the last value wins, as a dictionary's literal would refuse.
        let repeated: PathParameters = ["a": TemplateString(literal: "1"), "a": TemplateString(literal: "2")]
        #expect(repeated.count == 1 && repeated["a"] == TemplateString(literal: "2"))
    }

    @Test func aContractsPathParametersAndQueriesDecodeAsWritten() throws {
        let directory = NSTemporaryDirectory() + "path-parameters-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The same query text in three cases (the parser stores it once, and it is decoded once),
        // another between them.
        let query = #"{"fields": ["sku", "price"], "page": 1}"#
        let text = """
            {"id": "a", "request": {"method": "GET", "path": "/shops/{shop}/items/{id}"}, "cases": [
             {"name": "one", "request": {"pathParams": {"shop": "s", "id": 1}, "query": \(query)}, "response": {"status": 200}},
             {"name": "two", "request": {"pathParams": {"id": 2, "shop": "s"}, "query": \(query)}, "response": {"status": 200}},
             {"name": "three", "request": {"pathParams": {"shop": "t", "id": 3}, "query": {"page": 2}}, "response": {"status": 200}},
             {"name": "four", "request": {"pathParams": {"shop": "t", "id": 4}, "query": \(query)}, "response": {"status": 200}}
            ]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/a.json"))
        let set = try ContractLoader.load(directory: directory)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
        let cases = try #require(set.contracts.first?.cases)
        #expect(cases.map { $0.request.pathParams.keys } == Array(repeating: ["id", "shop"], count: 4))
        #expect(cases.map { $0.request.pathParams["id"]?.description } == ["1", "2", "3", "4"])
        let fields = [QueryItem(name: "fields", values: [TemplateString(literal: "sku"), TemplateString(literal: "price")]),
                      QueryItem(name: "page", values: [TemplateString(literal: "1")])]
        #expect(cases.map(\.request.query) == [fields, fields, [QueryItem(name: "page", values: [TemplateString(literal: "2")])], fields])
    }
}
