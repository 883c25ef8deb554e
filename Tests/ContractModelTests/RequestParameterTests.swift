import ContractJSON
import ContractModel
import Testing

/// Typed request parameters (`request.parameters`): described once per contract, every case's
/// values checked against them by lint, each problem placed at the value.
struct RequestParameterTests {
    static func load(parameters: String, cases: String, endpoint: String = "") -> ContractSet {
        let text = """
            { "id": "orders", "request": { "method": "GET", "path": "/shops/{shop}/orders"\(endpoint), "parameters": \(parameters) },
              "cases": \(cases) }
            """
        return ContractLoader.load(files: [SourceFile(path: "c/orders.json", relativePath: "orders.json", bytes: Array(text.utf8))], directory: "c")
    }

    static let described = """
        { "path": { "shop": { "schema": { "type": "integer", "minimum": 1 } } },
          "query": { "page": { "required": true, "schema": { "type": "integer" } },
                     "tags": { "schema": { "type": "array", "items": { "type": "string", "enum": ["new", "old"] } } },
                     "ids": { "style": "form", "explode": false, "schema": { "type": "array", "items": { "type": "integer" } } } },
          "header": { "X-Request-Id": { "required": true, "schema": { "type": "string", "format": "uuid" } } } }
        """

    static let goodCase = """
        { "name": "ok", "request": { "pathParams": { "shop": 7 }, "query": { "page": "2", "tags": ["new", "old"], "ids": "1,2,3" },
          "headers": { "X-Request-Id": "0b6e4c1e-1c2f-4d5e-9f8a-3b2c1d0e9f8a" } }, "response": { "status": 200 } }
        """

    func messages(_ set: ContractSet) -> [String] {
        set.diagnostics.map { "\($0.pointer?.description ?? "") \($0.message)" }
    }

    @Test func parametersAreDecodedWithTheirDefaults() throws {
        let set = Self.load(parameters: Self.described, cases: "[\(Self.goodCase)]")
        #expect(set.diagnostics.isEmpty, "\(messages(set))")
        let parameters = try #require(set.contracts.first).endpoint.parameters
        #expect(parameters.map { "\($0.location.rawValue) \($0.name) \($0.required) \($0.style.rawValue) \($0.explode)" } == [
            "path shop true simple false", "query page true form true", "query tags false form true", "query ids false form false",
            "header X-Request-Id true simple false",
        ])
        #expect(parameters[1].pointer == JSONPointer(tokens: ["request", "parameters", "query", "page"]))
    }

    @Test func valuesAreReadAsTheWireSendsThem() throws {
        let set = Self.load(parameters: Self.described, cases: "[\(Self.goodCase)]")
        let parameters = try #require(set.contracts.first).endpoint.parameters
        #expect(parameters[1].value(of: ["2"]) == .number(JSONNumber(2)))
        #expect(parameters[1].value(of: ["first"]) == .string("first"))
        #expect(parameters[2].value(of: ["new", "old"]) == .array([.string("new"), .string("old")]))
        #expect(parameters[3].value(of: ["1,2,3"]) == .array([1, 2, 3]))
    }

    @Test func aCaseValueThatBreaksItsParameterIsAnErrorAtTheValue() {
        let bad = """
            [{ "name": "bad", "request": { "pathParams": { "shop": 0 }, "query": { "page": "first", "tags": ["new", "bogus"], "ids": "1,x" },
               "headers": { "X-Request-Id": "not-a-uuid" } }, "response": { "status": 200 } }]
            """
        let set = Self.load(parameters: Self.described, cases: bad)
        let found = messages(set)
        #expect(set.diagnostics.allSatisfy { $0.severity == .error }, "\(found)")
        for (pointer, words) in [
            ("/cases/0/request/pathParams/shop", "path parameter 'shop'"), ("/cases/0/request/query/page", "query parameter 'page'"),
            ("/cases/0/request/query/tags", "query parameter 'tags'"), ("/cases/0/request/query/ids", "query parameter 'ids'"),
            ("/cases/0/request/headers/X-Request-Id", "header parameter 'X-Request-Id'"),
        ] {
            // An array's item is placed at its index: `/cases/0/request/query/tags/1`.
            #expect(found.contains { $0.hasPrefix(pointer) && $0.contains(words) && $0.contains("does not match its schema") }, "\(pointer): \(found)")
        }
        #expect(found.count == 5, "one problem per value: \(found)")
    }

    /// A schema that names its type through `$ref`, a combinator or an `enum` takes whichever
    /// reading of the value it accepts, as the stubs do; a value it accepts in no reading is an
    /// error at the value.
    @Test func aTypeNamedThroughAReferenceOrACombinatorReadsTheValue() {
        let parameters = """
            { "path": { "shop": { "schema": { "$defs": { "id": { "type": "integer" } }, "$ref": "#/$defs/id" } } },
              "query": { "size": { "schema": { "oneOf": [{ "type": "integer" }, { "enum": ["all"] }] } },
                         "mode": { "schema": { "enum": [1, 2] } } } }
            """
        let good = #"{ "name": "ok", "request": { "pathParams": { "shop": 7 }, "query": { "size": "5", "mode": "1" } }, "response": { "status": 200 } }"#
        let other = #"{ "name": "all", "request": { "pathParams": { "shop": 7 }, "query": { "size": "all", "mode": "2" } }, "response": { "status": 200 } }"#
        let clean = Self.load(parameters: parameters, cases: "[\(good), \(other)]")
        #expect(clean.diagnostics.isEmpty, "\(messages(clean))")
        let bad = #"{ "name": "bad", "request": { "pathParams": { "shop": "x" }, "query": { "size": "many", "mode": "3" } }, "response": { "status": 200 } }"#
        let broken = Self.load(parameters: parameters, cases: "[\(bad)]")
        let shown = messages(broken)
        #expect(shown.contains { $0.hasPrefix("/cases/0/request/pathParams/shop the path parameter 'shop' does not match its schema: expected integer") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("/cases/0/request/query/size the query parameter 'size' does not match its schema") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("/cases/0/request/query/mode the query parameter 'mode' does not match its schema: expected one of") }, "\(shown)")
    }

    @Test func aRequiredParameterACaseLeavesOutIsAnErrorUnlessTheCaseExpectsA4xx() {
        let cases = """
            [{ "name": "forgot", "request": { "pathParams": { "shop": 1 } }, "response": { "status": 200 } },
             { "name": "refused", "request": { "pathParams": { "shop": 1 }, "query": { "page": "x" } }, "response": { "status": [400, 422] } }]
            """
        let set = Self.load(parameters: Self.described, cases: cases)
        #expect(messages(set) == [
            "/cases/0 case 'forgot' does not send the required header parameter 'X-Request-Id' (a case that expects a 4xx may leave it out on purpose)",
            "/cases/0 case 'forgot' does not send the required query parameter 'page' (a case that expects a 4xx may leave it out on purpose)",
        ])
    }

    @Test func valuesTheEndpointSendsForEveryCaseAreCheckedOnceAtTheEndpoint() {
        let set = Self.load(
            parameters: Self.described, cases: "[\(Self.goodCase), \(Self.goodCase.replacingOccurrences(of: "\"ok\"", with: "\"again\""))]",
            endpoint: #", "query": { "page": "one" }"#)
        // Both cases override `page`; the endpoint's own value is never sent, so never checked.
        #expect(set.diagnostics.isEmpty, "\(messages(set))")
        let inherited = Self.load(
            parameters: Self.described,
            cases: """
                [{ "name": "a", "request": { "pathParams": { "shop": 1 }, "headers": { "X-Request-Id": "0b6e4c1e-1c2f-4d5e-9f8a-3b2c1d0e9f8a" } }, "response": { "status": 200 } },
                 { "name": "b", "request": { "pathParams": { "shop": 2 }, "headers": { "X-Request-Id": "0b6e4c1e-1c2f-4d5e-9f8a-3b2c1d0e9f8a" } }, "response": { "status": 200 } }]
                """,
            endpoint: #", "query": { "page": "one" }"#)
        #expect(messages(inherited).count == 1 && messages(inherited)[0].hasPrefix("/request/query/page "), "\(messages(inherited))")
    }

    @Test func aPlaceholderIsCheckedWhenItIsFilledNotBefore() {
        let cases = """
            [{ "name": "secret", "request": { "pathParams": { "shop": "${env:SHOP}" }, "query": { "page": "${env:PAGE}" },
               "headers": { "X-Request-Id": "${env:REQUEST_ID}" } }, "response": { "status": 200 } }]
            """
        #expect(Self.load(parameters: Self.described, cases: cases).diagnostics.isEmpty)
    }

    @Test func anUndescribedQueryParameterIsAWarningWithTheNearestName() {
        let cases = """
            [{ "name": "typo", "request": { "pathParams": { "shop": 1 }, "query": { "page": 1, "tagz": "new" },
               "headers": { "X-Request-Id": "0b6e4c1e-1c2f-4d5e-9f8a-3b2c1d0e9f8a" } }, "response": { "status": 200 } }]
            """
        let set = Self.load(parameters: Self.described, cases: cases)
        #expect(set.diagnostics.map(\.severity) == [.warning])
        #expect(messages(set) == ["/cases/0/request/query/tagz query parameter 'tagz' is not among the endpoint's parameters, did you mean 'tags'?"])
    }

    @Test func misusesOfTheDescriptionAreErrorsWhereTheyAreWritten() {
        let parameters = """
            { "path": { "shop": { "required": false }, "shp": {} }, "cookie": {}, "query": { "a": { "style": "simple" }, "b": { "explode": "yes", "schema": 3 } },
              "header": { "X-A": {}, "x-a": {} } }
            """
        let found = messages(Self.load(parameters: parameters, cases: #"[{ "name": "ok", "request": { "pathParams": { "shop": 1 } }, "response": { "status": 200 } }]"#))
        for expected in [
            "/request/parameters/path/shop/required a path parameter is always required",
            "/request/parameters/path/shp path parameter 'shp' is not a placeholder of '/shops/{shop}/orders', did you mean 'shop'?",
            "/request/parameters/cookie unknown parameter location 'cookie'",
            "/request/parameters/query/a/style a query parameter's 'style' is one of form, spaceDelimited, pipeDelimited",
            "/request/parameters/query/b/explode 'explode' must be true or false",
            "/request/parameters/query/b/schema 'schema' must be a JSON Schema",
            "/request/parameters/header/x-a header 'x-a' repeats 'X-A'",
        ] {
            #expect(found.contains { $0.hasPrefix(expected) }, "\(expected)\n\(found)")
        }
    }

    @Test func aParameterSchemaIsCheckedAgainstItsMetaSchema() {
        let parameters = #"{ "query": { "page": { "schema": { "type": "integr" } } } }"#
        let found = messages(Self.load(parameters: parameters, cases: #"[{ "name": "ok", "request": { "pathParams": { "shop": 1 } }, "response": { "status": 200 } }]"#))
        #expect(found.contains { $0.hasPrefix("/request/parameters/query/page/schema/type") && $0.contains("did you mean 'integer'?") }, "\(found)")
    }
}
