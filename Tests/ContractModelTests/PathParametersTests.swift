import ContractJSON
@testable import ContractModel
import Foundation
import Testing

/// Path parameters are read and written as a dictionary was, kept as an array (a one-entry
/// dictionary was 152 bytes a case); and a query a later case writes again is decoded once.
struct PathParametersTests {
    @Test func theyReadWriteAndCompareAsADictionary() throws {
        var parameters: PathParameters = ["shop": TemplateString(literal: "s1"), "id": TemplateString(literal: "7")]
        #expect(parameters.keys == ["shop", "id"])
        #expect(parameters["id"] == TemplateString(literal: "7"))
        #expect(parameters["missing"] == nil)
        parameters["id"] = TemplateString(literal: "8")
        parameters["aisle"] = TemplateString(literal: "3")
        #expect(parameters.keys == ["shop", "id", "aisle"])
        #expect(parameters.values.map(\.description) == ["s1", "8", "3"])
        #expect(parameters.removeValue(forKey: "shop") == TemplateString(literal: "s1"))
        parameters["never"] = nil
        #expect(parameters.keys == ["id", "aisle"])
        var read: [String: String] = [:]
        for (name, value) in parameters { read[name] = value.description }
        #expect(read == ["id": "8", "aisle": "3"])
        #expect(parameters.dictionary == ["id": TemplateString(literal: "8"), "aisle": TemplateString(literal: "3")])
        // Written in another order, the same parameters: equal, and hashed alike.
        let other = PathParameters(["aisle": TemplateString(literal: "3"), "id": TemplateString(literal: "8")])
        #expect(parameters == other)
        #expect(Set([parameters, other]).count == 1)
        #expect(parameters != ["id": TemplateString(literal: "8"), "aisle": TemplateString(literal: "4")])
        #expect(PathParameters() == [:])
        #expect(PathParameters().isEmpty)
        // Repeated in a literal, the last value wins (a dictionary's literal would stop the program).
        let repeated: PathParameters = ["a": TemplateString(literal: "1"), "a": TemplateString(literal: "2")]
        #expect(repeated.count == 1 && repeated["a"] == TemplateString(literal: "2"))
    }

    /// Names are one name when they are canonically equivalent, as in a dictionary: the Kelvin
    /// sign is `K`. A search by `<` lost it (Swift orders `"Ka"` before the Kelvin sign, which
    /// it calls equal to `"K"`), so a path's `{K}` had no value, or the wrong one.
    @Test func namesAreFoundAsADictionaryFindsThem() {
        let kelvin = "\u{212A}"
        var parameters: PathParameters = [kelvin: TemplateString(literal: "1"), "Ka": TemplateString(literal: "2")]
        #expect(parameters["K"] == TemplateString(literal: "1"))
        #expect(parameters["Ka"] == TemplateString(literal: "2"))
        parameters["K"] = TemplateString(literal: "3")
        #expect(parameters.count == 2 && parameters[kelvin] == TemplateString(literal: "3"))
        let dictionary: [String: TemplateString] = [kelvin: TemplateString(literal: "3"), "Ka": TemplateString(literal: "2")]
        #expect(parameters == PathParameters(dictionary))
        #expect(Set([parameters, PathParameters(dictionary)]).count == 1)
    }

    /// A value the parser could never share (its text over 4 KB) is not kept to be met again.
    @Test func onlyValuesThatCanBeMetAgainAreRemembered() throws {
        var recent = RecentDecodings<Int>(limit: 2)
        let small = try JSONParser(sharesValues: true).parse(Array(#"{"a": 1}"#.utf8)).value
        let members = (0...RecentDecodings<Int>.maxRemembered).map { "\"p\($0)\": 1" }.joined(separator: ", ")
        let large = try JSONParser(sharesValues: true).parse(Array("{\(members)}".utf8)).value
        recent.remember(1, for: small)
        recent.remember(2, for: large)
        #expect(recent.decoded(for: small) == 1)
        #expect(recent.decoded(for: large) == nil)
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
        #expect(cases.map { $0.request.pathParams.keys } == [["shop", "id"], ["id", "shop"], ["shop", "id"], ["shop", "id"]])
        #expect(cases.map { $0.request.pathParams["id"]?.description } == ["1", "2", "3", "4"])
        let fields = [QueryItem(name: "fields", values: [TemplateString(literal: "sku"), TemplateString(literal: "price")]),
                      QueryItem(name: "page", values: [TemplateString(literal: "1")])]
        #expect(cases.map(\.request.query) == [fields, fields, [QueryItem(name: "page", values: [TemplateString(literal: "2")])], fields])
    }
}
