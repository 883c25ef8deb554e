import ContractJSON
import ContractSchema
import Testing
import TestSupport

/// The verdict taken while parsing (``StreamingValidator``) against the usual one (a tape, then
/// `isValid`): it may say false where the usual way says valid, never true where it does not.
struct StreamingValidatorTests {
    private static func schema(_ text: String, formats: Bool = true) throws -> JSONSchema {
        try JSONSchema(JSONParser().parse(text).value, assertsFormats: formats)
    }

    /// The usual way's answer to what the streaming one answers: valid, with no name twice in an
    /// object, names compared by their bytes (as the verifier's repeated-member check does).
    private static func usual(_ schema: JSONSchema, _ bytes: [UInt8]) -> Bool {
        guard let tape = try? JSONParser().parseTape(bytes) else { return false }
        return schema.isValid(tape) && !repeatsName(tape)
    }

    private static func repeatsName(_ tape: JSONTape) -> Bool {
        for (index, entry) in tape.entries.enumerated() where entry.kind == .object {
            var names: Set<[UInt8]> = []
            var key = index + 1
            for _ in 0..<entry.count {
                guard names.insert(Array(tape.string(at: key).utf8)).inserted else { return true }
                key = Int(tape.entries[key + 1].end)
            }
        }
        return false
    }

    @Test func everySuiteCaseWhoseSchemaStreamsGetsTheUsualVerdict() throws {
        var streamed = 0
        var disagreements: [String] = []
        for testCase in SchemaTestSuiteTests.requiredDraft202012 + SchemaTestSuiteTests.requiredDraft7 + SchemaTestSuiteTests.optionalCases {
            guard
                let schema = try? JSONSchema(
                    testCase.schema, uri: "http://localhost:1234/suite-root.json", registry: SchemaTestSuite.registry, defaultDialect: testCase.dialect,
                    assertsFormats: testCase.assertsFormats),
                let streaming = schema.streamingValidator()
            else { continue }
            streamed += 1
            let bytes = CanonicalJSONWriter(style: .compact).bytes(testCase.data)
            let verdict = streaming.accepts(bytes)
            if verdict != schema.isValid(testCase.data) { disagreements.append("\(testCase.id): streamed \(verdict)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.prefix(20).joined(separator: "\n"))")
        // The suite's cases of type, properties, items, $ref, bounds, pattern, format… stream (2,598 of them).
        #expect(streamed > 2_000, "only \(streamed) cases streamed")
    }

    @Test func schemasWithKeywordsThatNeedTheWholeValueDoNotStream() throws {
        for text in [
            #"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#,
            #"{"type": "array", "uniqueItems": true}"#,
            #"{"patternProperties": {"^x-": {"type": "string"}}}"#,
            #"{"enum": [[1], 2, 3]}"#,
            #"{"const": {"a": 1}}"#,
            #"{"properties": {"a": {"if": {"type": "string"}, "then": {"minLength": 2}}}}"#,
            #"{"type": "object", "required": ["a"]}"#,
            #"{"prefixItems": [{"type": "string"}]}"#,
            ##"{"$defs": {"a": {"not": {}}}, "properties": {"x": {"$ref": "#/$defs/a"}}}"##,
        ] {
            #expect(try Self.schema(text).streamingValidator() == nil, "\(text) streams")
        }
    }

    @Test func aRepeatedMemberNameIsLeftToTheTapeWhereverItIs() throws {
        let schema = try Self.schema(#"{"type": "object", "properties": {"a": {"type": "integer"}, "any": {}}}"#)
        let streaming = try #require(schema.streamingValidator())
        #expect(streaming.accepts(Array(#"{"a": 1, "any": {"k": [1, {"m": 1}]}, "x": 2}"#.utf8)))
        for text in [
            #"{"a": 1, "a": 1}"#,  // declared
            #"{"x": 1, "x": 1}"#,  // undeclared
            #"{"a": 1, "\u0061": 1}"#,  // one name, one escaped
            #"{"any": {"k": 1, "k": 2}}"#,  // inside a value no schema constrains
            #"{"any": [{"m": 1, "n": 2, "m": 3}]}"#,
        ] {
            #expect(!streaming.accepts(Array(text.utf8)), "\(text) accepted")
        }
        // Names that differ in their code units are two names, as RFC 8259 §8.3 compares them.
        #expect(streaming.accepts(Array(#"{"any": {"é": 1, "e\u0301": 2}}"#.utf8)))
    }

    @Test func whatIsNotJSONOrTooDeepIsLeftToTheTape() throws {
        let streaming = try #require(Self.schema("{}").streamingValidator())
        #expect(!streaming.accepts(Array(#"{"a": 1"#.utf8)))
        #expect(!streaming.accepts(Array("[1, 2,]".utf8)))
        #expect(!streaming.accepts([]))
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(!streaming.accepts(Array(deep.utf8)))
        #expect(streaming.accepts(Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)))
    }

    /// A plan is laid out by a walk that recurses: schemas nested or chained past any real one's
    /// depth do not stream (and do not exhaust the stack), while a chain within it does.
    @Test func schemasNestedPastTheWalksBoundDoNotStream() throws {
        func chain(_ count: Int, nested: Bool) -> String {
            let defs = (0..<count).map { index in
                let next = index + 1 < count ? "{\"$ref\": \"#/$defs/d\(index + 1)\"}" : "{\"type\": \"integer\"}"
                return nested ? "\"d\(index)\": {\"properties\": {\"x\": \(next)}}" : "\"d\(index)\": {\"$ref\": \"#/$defs/d\(index + 1)\", \"minimum\": 0}"
            }
            let last = nested ? "" : ", \"d\(count)\": {\"type\": \"integer\"}"
            return "{\"$ref\": \"#/$defs/d0\", \"$defs\": {" + defs.joined(separator: ", ") + last + "}}"
        }
        for nested in [true, false] {
            #expect(try Self.schema(chain(20, nested: nested)).streamingValidator() != nil)
            #expect(try Self.schema(chain(3_000, nested: nested)).streamingValidator() == nil)
        }
    }

    /// A `$dynamicRef` anywhere the compiler reached makes the evaluator keep a dynamic scope and
    /// count each `$ref`-only schema it passes against its depth limit: such a schema does not
    /// stream (found by review: a chain of ten `$ref`s accepted 84 levels the evaluator refuses).
    @Test func aSchemaThatKeepsADynamicScopeDoesNotStream() throws {
        let chain = (1...10).map { "\"h\($0)\": {\"$ref\": \"#/$defs/h\($0 == 10 ? "" : String($0 + 1))\"}" }
            .joined(separator: ", ").replacingOccurrences(of: "#/$defs/h\"", with: "#\"")
        let text = "{\"type\": \"object\", \"properties\": {\"c\": {\"$ref\": \"#/$defs/h1\"}}, \"$defs\": {" + chain
        let withDynamic = try Self.schema(text + ", \"unused\": {\"$dynamicAnchor\": \"T\", \"items\": {\"$dynamicRef\": \"#T\"}}}}")
        #expect(withDynamic.streamingValidator() == nil)
        let bytes = Array((String(repeating: "{\"c\": ", count: 84) + "{}" + String(repeating: "}", count: 84)).utf8)
        #expect(!Self.usual(withDynamic, bytes), "the evaluator's limit is no longer met: the test no longer shows what it is for")
        // Without the dynamic anchor the same chain streams, and agrees at every depth.
        let without = try Self.schema(text + "}}")
        let streaming = try #require(without.streamingValidator())
        for depth in stride(from: 1, through: 300, by: 7) {
            let bytes = Array((String(repeating: "{\"c\": ", count: depth) + "{}" + String(repeating: "}", count: depth)).utf8)
            #expect(!streaming.accepts(bytes) || Self.usual(without, bytes), "depth \(depth)")
        }
    }

    /// Plan nodes are sets of schemas: a schema made to give many large sets, each gathering one
    /// heavy closure again (found by review: 212 s for this plan), stops at the plan's work bound
    /// and does not stream; its compile is unaffected.
    @Test func aSchemaMadeToMultiplyPlanNodesDoesNotStream() throws {
        let bits = 6, copies = 18
        let names = (0..<(1 << bits)).map { "n\($0)" }
        var defs: [String] = []
        for bit in 0..<bits {
            for side in 0..<2 {
                let members = (0..<copies).map { copy in
                    "{\"properties\": {" + names.enumerated().map { place, name in "\"\(name)\": {\"$ref\": \"#/$defs/Z\(bit)_\(side)_\((place >> bit) & 1)_\(copy)\"}" }
                        .joined(separator: ", ") + "}}"
                }
                defs.append("\"Y\(bit)_\(side)\": {\"type\": \"object\", \"allOf\": [\(members.joined(separator: ", "))]}")
                for value in 0..<2 {
                    for copy in 0..<copies { defs.append("\"Z\(bit)_\(side)_\(value)_\(copy)\": {\"type\": \"object\", \"allOf\": [{\"$ref\": \"#/$defs/W\"}]}") }
                }
            }
        }
        let heavy = "{\"properties\": {" + (0..<50).map { "\"w\($0)\": true" }.joined(separator: ", ") + "}}"
        defs.append("\"W\": {\"allOf\": [" + Array(repeating: heavy, count: 100).joined(separator: ", ") + "]}")
        let root = names.enumerated().map { place, name in
            "\"\(name)\": {\"allOf\": [" + (0..<bits).map { "{\"$ref\": \"#/$defs/Y\($0)_\((place >> $0) & 1)\"}" }.joined(separator: ", ") + "]}"
        }
        let schema = try Self.schema("{\"type\": \"object\", \"properties\": {\(root.joined(separator: ", "))}, \"$defs\": {\(defs.joined(separator: ", "))}}")
        #expect(schema.streamingValidator() == nil)
    }

    /// Each `$ref` beside other keywords is one more schema the evaluator applies at a level, within
    /// its limit of a thousand: the streamed verdict stops short of that, never says valid past it.
    @Test func nestingIsLeftToTheTapeBeforeTheEvaluatorsLimit() throws {
        let defs = ##""a": {"$ref": "#/$defs/b", "minItems": 0}, "b": {"$ref": "#/$defs/c", "maxItems": 5}, "c": {"type": "array", "items": {"$ref": "#/$defs/a", "type": "array"}}"##
        let schema = try Self.schema(##"{"$ref": "#/$defs/a", "type": "array", "$defs": {"## + defs + "}}")
        let streaming = try #require(schema.streamingValidator())
        var streamed = 0
        for depth in stride(from: 1, through: 500, by: 11) {
            let bytes = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            let verdict = streaming.accepts(bytes)
            #expect(!verdict || Self.usual(schema, bytes), "depth \(depth): streamed true, the tape false")
            if verdict { streamed += 1 }
        }
        #expect(streamed > 5)
    }

    /// `allOf` of object schemas, as OpenAPI documents compose them: one node whose names are the
    /// union of theirs, each member held to every schema that speaks of it.
    @Test func allOfOfObjectSchemasStreamsAsOne() throws {
        let schema = try Self.schema(##"""
            {"allOf": [
              {"$ref": "#/$defs/Base"},
              {"type": "object", "required": ["price"], "properties": {"price": {"type": "number", "minimum": 0}, "id": {"maximum": 100}}},
              {"properties": {"tags": {"items": {"type": "string"}}, "id": {}, "price": {}}, "additionalProperties": {"type": "boolean"}}],
             "$defs": {"Base": {"type": "object", "required": ["id"], "additionalProperties": false,
                                "properties": {"id": {"type": "integer"}, "price": {}, "tags": {"type": "array", "maxItems": 2}}}}}
            """##)
        let streaming = try #require(schema.streamingValidator())
        for text in [
            #"{"id": 1, "price": 2}"#, #"{"id": 1, "price": 2, "tags": ["a"]}"#, #"{"id": 101, "price": 2}"#,
            #"{"id": 1.5, "price": 2}"#, #"{"price": 2}"#, #"{"id": 1}"#, #"{"id": 1, "price": -1}"#,
            #"{"id": 1, "price": 2, "tags": [1]}"#, #"{"id": 1, "price": 2, "tags": ["a", "b", "c"]}"#,
            #"{"id": 1, "price": 2, "extra": true}"#, #"{"id": 1, "price": 2, "id": 1}"#, #"[]"#,
        ] {
            let bytes = Array(text.utf8)
            #expect(streaming.accepts(bytes) == Self.usual(schema, bytes), "\(text)")
        }
        #expect(streaming.accepts(Array(#"{"id": 1, "price": 2, "tags": ["a"]}"#.utf8)))
        // Each member's `additionalProperties` holds every name that member does not declare,
        // whichever other member declares it.
        let split = try Self.schema(#"{"allOf": [{"properties": {"a": {}}}, {"additionalProperties": false}]}"#)
        let splitStreaming = try #require(split.streamingValidator())
        #expect(!Self.usual(split, Array(#"{"a": 1}"#.utf8)))
        #expect(!splitStreaming.accepts(Array(#"{"a": 1}"#.utf8)))
        #expect(splitStreaming.accepts(Array("{}".utf8)))
        // Names merged by their bytes, as members are matched (found by review: merged as
        // strings, `é` and `e` + U+0301 were one name, and each member was held to one schema).
        let accents = try Self.schema(
            #"{"allOf": [{"properties": {"é": {"type": "string"}}, "required": ["é"]}, {"properties": {"e\u0301": {"type": "integer"}}, "required": ["e\u0301"]}]}"#)
        let accentsStreaming = try #require(accents.streamingValidator())
        for text in [#"{"e\u0301": "s"}"#, #"{"é": 1}"#, #"{"é": "s"}"#, #"{"é": "s", "e\u0301": 1}"#] {
            let bytes = Array(text.utf8)
            #expect(accentsStreaming.accepts(bytes) == Self.usual(accents, bytes), "\(text)")
        }
        #expect(accentsStreaming.accepts(Array(#"{"é": "s", "e\u0301": 1}"#.utf8)))
        // One keyword with both names: each member finds its own schema (found by review: the
        // names were merged, the positions shifted, and a member read past its node's children).
        for text in [
            #"{"properties": {"é": {"type": "string"}, "e\u0301": {"type": "integer"}}}"#,
            #"{"properties": {"x": {"properties": {"é": {"type": "string"}, "e\u0301": {"type": "integer"}}}}}"#,
        ] {
            let schema = try Self.schema(text)
            let streaming = try #require(schema.streamingValidator())
            for document in [#"{"e\u0301": 1}"#, #"{"e\u0301": "s"}"#, #"{"é": "s"}"#, #"{"x": {"e\u0301": 1}}"#, #"{"x": {"e\u0301": []}}"#] {
                let bytes = Array(document.utf8)
                #expect(streaming.accepts(bytes) == Self.usual(schema, bytes), "\(text) \(document)")
            }
        }
        // 65 names by their bytes (64 as strings) are past one word's bits: no stream.
        let wide = (0..<63).map { "\"p\($0)\": {\"type\": \"integer\"}" } + [#""é": {"type": "integer"}"#, #""e\u0301": {"type": "integer"}"#]
        #expect(try Self.schema("{\"properties\": {\(wide.joined(separator: ", "))}}").streamingValidator() == nil)
        // A member without names first is no reason not to stream.
        #expect(try Self.schema(#"{"allOf": [{"properties": {}}, {"properties": {"a": {"type": "integer"}}}]}"#).streamingValidator() != nil)
    }

    /// A product page and a thousand documents made from it by one change each (a type, a bound,
    /// a pattern, a format, a missing or extra or repeated member): each gets the usual verdict,
    /// or a false where the usual way says valid, never the reverse.
    @Test func neverAcceptsWhatTheUsualWayRejectsOnChangedDocuments() throws {
        let schema = try Self.schema(Self.pageSchema)
        let streaming = try #require(schema.streamingValidator())
        var generator = SplitMix(seed: 42)
        var accepted = 0
        var rejected = 0
        for round in 0..<1_000 {
            let text = Self.changedPage(round, &generator)
            let bytes = Array(text.utf8)
            let verdict = streaming.accepts(bytes)
            let expected = Self.usual(schema, bytes)
            #expect(verdict == expected, "round \(round): streamed \(verdict), the tape \(expected): \(text)")
            if verdict { accepted += 1 } else { rejected += 1 }
        }
        // Both kinds of document are met.
        #expect(accepted > 100 && rejected > 100, "accepted \(accepted), rejected \(rejected)")
    }

    static let pageSchema = #"""
        {"type": "object", "required": ["data", "page"], "additionalProperties": false,
         "properties": {
          "data": {"type": "array", "maxItems": 4, "items": {"$ref": "#/$defs/Product"}},
          "page": {"type": "integer", "minimum": 1},
          "note": {"type": ["string", "null"], "maxLength": 5},
          "rank": {"enum": [1, 2.5, null, true, "top"]},
          "flag": {"const": false}},
         "$defs": {"Product": {"type": "object", "required": ["id", "sku"], "additionalProperties": false,
          "properties": {
           "id": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 1},
           "sku": {"type": "string", "pattern": "^SKU-[0-9]+$"},
           "price": {"type": "number", "maximum": 100},
           "currency": {"enum": ["KRW", "USD"]},
           "at": {"type": "string", "format": "date-time"},
           "tags": {"type": "array", "items": {"type": "string", "minLength": 2}},
           "vendor": {"type": "object", "minProperties": 1, "properties": {"name": {"const": "Acme"}}}}}}}
        """#

    /// The page with one change picked by `generator` (some rounds none).
    static func changedPage(_ round: Int, _ generator: inout SplitMix) -> String {
        var product: [(String, String)] = [
            ("id", "7"), ("sku", #""SKU-1""#), ("price", "9.5"), ("currency", #""USD""#), ("at", #""2026-01-05T09:30:00Z""#),
            ("tags", #"["ab", "cd"]"#), ("vendor", #"{"name": "Acme", "site": 1}"#),
        ]
        var page: [(String, String)] = [("page", "1"), ("note", "null"), ("rank", "2.5"), ("flag", "false")]
        let changes: [(inout [(String, String)], inout [(String, String)]) -> Void] = [
            { _, _ in },
            { product, _ in product[0].1 = "0" },
            { product, _ in product[0].1 = "7.5" },
            { product, _ in product[0].1 = "7.0" },
            { product, _ in product[1].1 = #""SKU-x""# },
            { product, _ in product[2].1 = "100.01" },
            { product, _ in product[2].1 = "1e2" },
            { product, _ in product[3].1 = #""EUR""# },
            { product, _ in product[3].1 = "1" },
            { product, _ in product[4].1 = #""2026-13-05T09:30:00Z""# },
            { product, _ in product[5].1 = #"["ab", "c"]"# },
            { product, _ in product[5].1 = #"["ab", null]"# },
            { product, _ in product[6].1 = "{}" },
            { product, _ in product[6].1 = #"{"name": "Acm"}"# },
            { product, _ in product.remove(at: 1) },
            { product, _ in product.append(("extra", "1")) },
            { product, _ in product.append(("id", "8")) },
            { product, _ in product[6].1 = #"{"name": "Acme", "site": 1, "site": 2}"# },
            { _, page in page[0].1 = "0" },
            { _, page in page[1].1 = #""abcdef""# },
            { _, page in page[1].1 = #""abcde""# },
            { _, page in page.append(("more", "true")) },
            { _, page in page.remove(at: 0) },
            { _, page in page[2].1 = "1.0" },
            { _, page in page[2].1 = "25e-1" },
            { _, page in page[2].1 = "3" },
            { _, page in page[2].1 = "null" },
            { _, page in page[2].1 = "false" },
            { _, page in page[2].1 = #""top""# },
            { _, page in page[2].1 = #""1""# },
            { _, page in page[2].1 = "[1]" },
            { _, page in page[3].1 = "0" },
            { _, page in page[3].1 = "true" },
        ]
        changes[Int(generator.next() % UInt64(changes.count))](&product, &page)
        let count = Int(generator.next() % 6)
        let item = "{" + product.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        let members = [("data", "[" + Array(repeating: item, count: count).joined(separator: ", ") + "]")] + page
        return "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
}
