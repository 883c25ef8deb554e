import ContractJSON
import ContractModel
import Testing

/// Snippet tests: files in memory, one rule at a time.
struct ContractLoaderTests {
    func load(_ files: [String: String]) -> ContractSet {
        let sources = files.keys.sorted().map { SourceFile(path: "c/" + $0, relativePath: $0, bytes: Array(files[$0, default: ""].utf8)) }
        return ContractLoader.load(files: sources, directory: "c")
    }

    func rendered(_ files: [String: String]) -> [String] {
        load(files).diagnostics.map(\.rendered)
    }

    let deleteContract = """
        {
          "id": "products.delete",
          "tags": ["products"],
          "request": {
            "method": "DELETE", "path": "/api/products/{id}",
            "headers": { "Authorization": "Bearer ${env:MARKET_TOKEN}" }
          },
          "cases": [
            {
              "name": "deleted",
              "setup": [
                {
                  "name": "create",
                  "request": { "method": "POST", "path": "/api/products", "body": { "name": "Pencil", "price": 1.5 } },
                  "status": 201,
                  "capture": { "productId": "/id" }
                }
              ],
              "request": { "pathParams": { "id": "${capture:productId}" }, "query": { "force": true, "tag": ["a", "b"] } },
              "response": { "status": [204, "2XX"], "empty": true, "headers": { "X-Request-Id": { "pattern": "^[0-9a-f-]+$" } } }
            }
          ]
        }
        """

    @Test func decodesAValidContract() throws {
        let set = load(["products/delete.json": deleteContract])
        #expect(set.diagnostics.isEmpty)
        let contract = try #require(set.contracts.first)
        #expect(contract.id == "products.delete")
        #expect(contract.endpoint.method == .delete)
        #expect(contract.endpoint.path.placeholders == ["id"])
        #expect(contract.endpoint.headers.first?.value?.environmentVariables == ["MARKET_TOKEN"])
        let testCase = try #require(contract.cases.first)
        #expect(testCase.setup.first?.captures == [SetupStep.Capture(variable: "productId", pointer: try JSONPointer(parsing: "/id"))])
        #expect(testCase.setup.first?.status == StatusExpectation([.code(201)]))
        #expect(testCase.request.pathParams["id"]?.capturedVariables == ["productId"])
        #expect(testCase.request.query.map(\.name) == ["force", "tag"])
        #expect(testCase.request.query.last?.values?.count == 2)
        #expect(testCase.response.status == StatusExpectation([.code(204), .class(2)]))
        #expect(testCase.response.body == .empty)
        #expect(testCase.response.headers == [HeaderExpectation(name: "X-Request-Id", matcher: .pattern("^[0-9a-f-]+$"))])
        #expect(testCase.pointer.description == "/cases/0")
    }

    @Test func reportsEveryProblemOfAFileInOneRun() {
        let text = """
            {
              "id": "x",
              "request": { "method": "get", "path": "/a/{id}" },
              "cases": [
                { "name": "one", "request": { "pathParams": { "id": 1 } }, "response": { "status": "ok" } },
                { "name": "two", "response": { "stauts": 200 } }
              ]
            }
            """
        #expect(rendered(["x.json": text]) == [
            "c/x.json:3:26: error: HTTP methods are written in capitals, found \"get\", did you mean 'GET'? [/request/method]",
            "c/x.json:5:88: error: 'status' must be an integer from 100 to 599, a class like '2XX' or a list of them, found \"ok\" [/cases/0/response/status]",
            "c/x.json:6:5: error: case 'two' has no value for the path placeholder '{id}' of '/a/{id}' [/cases/1]",
            "c/x.json:6:36: error: unknown key 'stauts' in the response of case 'two', did you mean 'status'? [/cases/1/response/stauts]",
        ])
    }

    @Test func columnsCountCharactersNotBytes() {
        let text = "{\"id\": \"x\", \"summary\": \"äöü\", \"request\": 1, \"cases\": [] }"
        #expect(rendered(["x.json": text]).first == "c/x.json:1:42: error: the endpoint 'request' must be an object, found 1 [/request]")
    }

    @Test func windowsLineEndings() {
        let text = "{\r\n  \"id\": 7,\r\n  \"request\": { \"method\": \"GET\", \"path\": \"/\" },\r\n  \"cases\": [{ \"name\": \"a\", \"response\": { \"status\": 200 } }]\r\n}\r\n"
        #expect(rendered(["x.json": text]) == ["c/x.json:2:9: error: 'id' must be a string, found 7 [/id]"])
    }

    @Test func inlineFragmentsResolveWithinTheirSchemaAndAnchorsAreFound() {
        let contract = """
            {
              "id": "x", "request": { "method": "GET", "path": "/" },
              "cases": [{ "name": "a", "response": { "status": 200, "schema": {
                "type": "array", "items": { "$ref": "#/$defs/Item" },
                "$defs": { "Item": { "$ref": "schemas/money.json#Money" } }
              } } }]
            }
            """
        let money = #"{ "$defs": { "m": { "$anchor": "Money", "type": "number" } } }"#
        #expect(rendered(["x.json": contract, "schemas/money.json": money]).isEmpty)
        let wrongAnchor = contract.replacingOccurrences(of: "#Money", with: "#Mony")
        #expect(rendered(["x.json": wrongAnchor, "schemas/money.json": money]) == [
            "c/x.json:5:34: error: $ref 'schemas/money.json#Mony' names the anchor 'Mony', which no '$anchor' in 'schemas/money.json' declares [/cases/0/response/schema/$defs/Item/$ref]",
        ])
    }

    @Test func referencesMustStayInsideTheTree() {
        let contract = #"{ "id": "x", "request": { "method": "GET", "path": "/" }, "cases": [{ "name": "a", "response": { "status": 200, "schema": { "$ref": "../outside.json" } } }] }"#
        #expect(rendered(["x.json": contract]) == [
            "c/x.json:1:133: error: $ref '../outside.json' points outside the contracts directory [/cases/0/response/schema/$ref]",
        ])
    }

    @Test func aDirectSelfReferenceIsACycle() {
        let contract = ##"{ "id": "x", "request": { "method": "GET", "path": "/" }, "cases": [{ "name": "a", "response": { "status": 200, "schema": { "$defs": { "A": { "$ref": "#/$defs/A" } }, "$ref": "#/$defs/A" } } }] }"##
        let messages = load(["x.json": contract]).diagnostics.map(\.message)
        #expect(messages == [
            "$ref '#/$defs/A' is part of a reference cycle that never reaches a value: x.json#/cases/0/response/schema/$defs/A -> x.json#/cases/0/response/schema/$defs/A",
        ])
    }

    @Test func anEmptyTreeIsAnError() {
        #expect(rendered(["schemas/a.json": "{}"]) == [
            "c: error: no contract files (*.json outside 'schemas' folders) found",
            "c/schemas/a.json:1:1: warning: schema file is not referenced by any contract",
        ])
    }
}
