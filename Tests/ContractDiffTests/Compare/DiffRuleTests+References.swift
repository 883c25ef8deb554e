import Testing

@testable import ContractDiff

extension DiffRuleTests {
    /// What must be no change: the same tree, a schema moved to another file with its `$ref`s
    /// updated, a schema taken into `$defs` or a shared file, trees that say the same in other words;
    /// and through references, the resolved schema is what is compared.
    struct NoChange {
        typealias C = DiffTrees

        /// A response schema (`GET`) and a request schema (`POST`, no body) in two contracts, with
        /// shared schema files beside them.
        static func tree(response: String, request: String, shared: [String: String] = [:]) -> [String: String] {
            var files = shared
            files["things/get.json"] = C.contract(id: "things.get", cases: [C.kase(response: #"{"status":200,"schema":\#(response)}"#)])
            files["things/create.json"] = C.contract(
                id: "things.create", method: "POST", cases: [C.kase(request: #"{"schema":\#(request)}"#, response: #"{"status":201}"#)])
            return files
        }

        /// The same schema as the response and the request schema.
        static func tree(_ schema: String, shared: [String: String] = [:]) -> [String: String] {
            tree(response: schema, request: schema, shared: shared)
        }

        static let thing = #"{"type":"object","required":["id","price"],"properties":{"id":{"type":"integer"},"price":{"type":"number","minimum":0}}}"#

        // MARK: The same tree

        @Test func identicalTreesGiveNoChange() throws {
            for files in [Self.tree(Self.thing), Self.tree(#"{"$ref":"../schemas/thing.json"}"#, shared: ["schemas/thing.json": Self.thing])] {
                let result = try C.diff(files, files)
                #expect(result.changes.isEmpty, "\(C.shown(result))")
            }
        }

        /// Every tree of the rule tables, against itself.
        @Test func everyTreeOfTheTablesIsNoChangeAgainstItself() throws {
            var trees = ContractRulePair.all.flatMap { [$0.old, $0.new] }
            for pair in SchemaPair.all {
                for side in MessageSide.allCases { trees += [C.schemaTree(pair.old, on: side), C.schemaTree(pair.new, on: side)] }
            }
            for files in trees {
                let result = try C.diff(files, files)
                #expect(result.changes.isEmpty, "\(files):\n\(C.shown(result))")
            }
        }

        // MARK: Moved and referenced schemas

        /// `schemas/thing.json` (which refers to `price.json` beside it) moved to
        /// `schemas/catalog/item.json` and `price.json` to `schemas/money/amount.json`, every `$ref`
        /// updated: the same schema, so no change on either side.
        @Test func aSchemaMovedWithItsReferencesUpdatedIsNoChange() throws {
            let old = Self.tree(
                #"{"$ref":"../schemas/thing.json"}"#,
                shared: [
                    "schemas/thing.json": #"{"type":"object","required":["id","price"],"properties":{"id":{"type":"integer"},"price":{"$ref":"price.json"}}}"#,
                    "schemas/price.json": #"{"type":"number","minimum":0}"#,
                ])
            let new = Self.tree(
                #"{"$ref":"../schemas/catalog/item.json"}"#,
                shared: [
                    "schemas/catalog/item.json":
                        #"{"type":"object","required":["id","price"],"properties":{"id":{"type":"integer"},"price":{"$ref":"../money/amount.json"}}}"#,
                    "schemas/money/amount.json": #"{"type":"number","minimum":0}"#,
                ])
            let result = try C.diff(old, new)
            #expect(result.changes.isEmpty, "\(C.shown(result))")
        }

        /// `thing` with its `price` written through `$defs`, a shared file, or a shared file's `$defs`.
        struct Written: Sendable, CustomTestStringConvertible {
            let how: String
            let files: @Sendable (String) -> [String: String]
            var testDescription: String { how }

            static func withDefs(_ price: String) -> String {
                ##"{"$defs":{"Price":\##(price)},"type":"object","required":["id","price"],"properties":{"id":{"type":"integer"},"price":{"$ref":"#/$defs/Price"}}}"##
            }
            static let sharedPrice = #"{"type":"object","required":["id","price"],"properties":{"id":{"type":"integer"},"price":{"$ref":"../schemas/price.json"}}}"#
            static let sharedDefsPrice =
                #"{"type":"object","required":["id","price"],"properties":{"id":{"type":"integer"},"price":{"$ref":"../schemas/money.json#/$defs/Price"}}}"#

            static let inline = Written(how: "inline") {
                tree(#"{"type":"object","required":["id","price"],"properties":{"id":{"type":"integer"},"price":\#($0)}}"#)
            }
            static let defs = Written(how: "$defs") { tree(withDefs($0)) }
            static let shared = Written(how: "a shared file") { tree(sharedPrice, shared: ["schemas/price.json": $0]) }
            static let sharedDefs = Written(how: "a shared file's $defs") { tree(sharedDefsPrice, shared: ["schemas/money.json": #"{"$defs":{"Price":\#($0)}}"#]) }
            static let all = [inline, defs, shared, sharedDefs]
        }

        /// The same schema written inline or through any reference: no change between any two.
        @Test(arguments: Written.all, Written.all)
        func aSchemaWrittenInlineOrReferencedIsTheSame(_ old: Written, _ new: Written) throws {
            let price = #"{"type":"number","minimum":0}"#
            let result = try C.diff(old.files(price), new.files(price))
            #expect(result.changes.isEmpty, "\(C.shown(result))")
        }

        /// Through a reference, the schema it resolves to is what is compared: `price` a string in
        /// NEW's `$defs` (or shared file) is a type change at `/price` on both sides, placed where NEW
        /// writes the type. (The fixture OLD's response gives, a number, fails NEW as well.)
        @Test(arguments: [Written.defs, Written.shared, Written.sharedDefs])
        func theResolvedSchemaIsCompared(_ written: Written) throws {
            let result = try C.diff(written.files(#"{"type":"number","minimum":0}"#), written.files(#"{"type":"string"}"#))
            let rules = result.changes.map { "\($0.rule) \($0.subject)" }.sorted()
            #expect(
                rules == ["fixture-no-longer-matches fixture", "request-type-changed request body /price", "response-type-changed response body /price"],
                "\(C.shown(result))")
            for change in result.changes where change.rule.hasSuffix("type-changed") {
                #expect(change.severity == .breaking, "\(change.rule)")
                #expect(change.old?.value == #""number""# && change.new?.value == #""string""#, "\(change.message)")
                let file = switch written.how {
                case "$defs": change.rule.hasPrefix("response") ? "things/get.json" : "things/create.json"
                case "a shared file": "schemas/price.json"
                default: "schemas/money.json"
                }
                let pointer = written.how == "a shared file" ? "/type" : "/$defs/Price/type"
                #expect(change.new?.file == "new/" + file, "\(change.rule) placed in \(change.new?.file ?? "nowhere")")
                #expect(change.new?.pointer.hasSuffix(pointer) == true, "\(change.rule) placed at \(change.new?.pointer ?? "nowhere")")
            }
        }

        /// Two trees whose files show under the same paths, as two imported OpenAPI documents do
        /// (`contract diff old.yaml new.yaml`: both are `listThings.json` and `schemas/Thing.json`): a
        /// change in a shared schema file is still a change on both sides.
        @Test func aSharedSchemaChangeIsFoundWhenBothTreesShowTheSamePaths() throws {
            let old = Self.tree(#"{"$ref":"../schemas/thing.json"}"#, shared: ["schemas/thing.json": #"{"type":"integer"}"#])
            let new = Self.tree(#"{"$ref":"../schemas/thing.json"}"#, shared: ["schemas/thing.json": #"{"type":"string"}"#])
            let result = try C.diff(old, new, shownAs: ("contracts", "contracts"))
            #expect(result.changes.contains { $0.rule == "request-type-changed" }, "\(C.shown(result))")
            #expect(result.changes.contains { $0.rule == "response-type-changed" && $0.severity == .breaking }, "\(C.shown(result))")
        }

        // MARK: Keywords beside a $ref

        static let base = #"{"type":"object","required":["id"],"properties":{"id":{"type":"integer"},"note":{"type":"string"}}}"#

        static func besideBase(_ siblings: String) -> String {
            ##"{"$defs":{"Base":\##(base)},"$ref":"#/$defs/Base"\##(siblings)}"##
        }

        /// Keywords beside a `$ref` apply with the target's (draft 2020-12): `properties` beside it
        /// add a property, they do not take the target's out.
        @Test func propertiesBesideARefAddToTheTargetsProperties() throws {
            let result = try C.diff(
                C.schemaTree(Self.besideBase(""), on: .response), C.schemaTree(Self.besideBase(#","properties":{"extra":{"type":"string"}}"#), on: .response))
            #expect(result.changes.contains { $0.rule == "response-property-added" && $0.subject == "response body /extra" }, "\(C.shown(result))")
            #expect(!result.changes.contains { $0.rule == "response-property-removed" }, "\(C.shown(result))")
        }

        /// `required` beside a `$ref` requires more; the target's `required` still holds.
        @Test func requiredBesideARefAddsToTheTargetsRequired() throws {
            let result = try C.diff(
                C.schemaTree(Self.besideBase(""), on: .response), C.schemaTree(Self.besideBase(#","required":["note"]"#), on: .response))
            #expect(result.changes.contains { $0.rule == "response-property-became-required" && $0.subject == "response body /note" }, "\(C.shown(result))")
            #expect(!result.changes.contains { $0.rule == "response-property-became-optional" }, "\(C.shown(result))")
        }

        /// Two properties referring to the same `$defs` entry, each with its own bound beside the
        /// `$ref`: a change to the second one's bound is a change.
        @Test(arguments: MessageSide.allCases)
        func aBoundBesideASecondRefToTheSameTargetIsCompared(_ side: MessageSide) throws {
            func schema(_ b: Int) -> String {
                ##"{"$defs":{"S":{"type":"string"}},"type":"object","properties":{"a":{"$ref":"#/$defs/S","maxLength":5},"b":{"$ref":"#/$defs/S","maxLength":\##(b)}}}"##
            }
            let result = try C.diff(C.schemaTree(schema(5), on: side), C.schemaTree(schema(9), on: side))
            let subject = side == .parameter ? "query parameter 'p' /b" : "\(side.rawValue) body /b"
            let found = result.changes.contains { $0.rule == "\(side.rawValue)-max-length-raised" && $0.subject == subject }
            #expect(found, "\(C.shown(result))")
        }

        // MARK: The same, said otherwise

        /// Two trees that say the same thing in other words, and must give no change.
        struct Equivalent: Sendable, CustomTestStringConvertible {
            let what: String
            let old: [String: String]
            let new: [String: String]
            var testDescription: String { what }
        }

        static let equivalents: [Equivalent] = [
            Equivalent(
                what: "a path placeholder renamed", old: ["things.json": C.contract(path: "/things/{id}", cases: [C.kase(request: #"{"pathParams":{"id":1}}"#)])],
                new: ["things.json": C.contract(path: "/things/{thingId}", cases: [C.kase(request: #"{"pathParams":{"thingId":1}}"#)])]),
            Equivalent(what: "a text body as a string and as equals", old: C.respond(#"{"status":200,"text":"ok"}"#), new: C.respond(#"{"status":200,"text":{"equals":"ok"}}"#)),
            Equivalent(what: "statuses in another order", old: C.respond(#"{"status":[200,201]}"#), new: C.respond(#"{"status":[201,200]}"#)),
            Equivalent(
                what: "a response header's name in another case", old: C.respond(#"{"status":200,"headers":{"X-Rate":"10"}}"#),
                new: C.respond(#"{"status":200,"headers":{"x-rate":"10"}}"#)),
            Equivalent(
                what: "a header moved from the endpoint into its only case", old: ["things.json": C.contract(endpoint: #","headers":{"X-Api-Key":"k"}"#, cases: [C.kase()])],
                new: C.cases(C.kase(request: #"{"headers":{"X-Api-Key":"k"}}"#))),
            Equivalent(what: "enum values in another order", old: C.schemaTree(#"{"enum":["a","b"]}"#, on: .response), new: C.schemaTree(#"{"enum":["b","a"]}"#, on: .response)),
            Equivalent(
                what: "required names in another order", old: C.schemaTree(#"{"type":"object","required":["a","b"]}"#, on: .request),
                new: C.schemaTree(#"{"type":"object","required":["b","a"]}"#, on: .request)),
            Equivalent(what: "types in another order", old: C.schemaTree(#"{"type":["string","null"]}"#, on: .response), new: C.schemaTree(#"{"type":["null","string"]}"#, on: .response)),
            Equivalent(what: "a schema true and {}", old: C.schemaTree("true", on: .response), new: C.schemaTree("{}", on: .response)),
            Equivalent(what: "a bound as 1 and 1.0", old: C.schemaTree(#"{"type":"number","minimum":1}"#, on: .request), new: C.schemaTree(#"{"type":"number","minimum":1.0}"#, on: .request)),
            Equivalent(
                what: "the default charset stated and left out", old: C.respond(#"{"status":200,"text":{"equals":"ok","charset":"utf-8"}}"#),
                new: C.respond(#"{"status":200,"text":{"equals":"ok"}}"#)),
            Equivalent(
                what: "a request Content-Type with a charset parameter", old: C.send(#"{"headers":{"Content-Type":"application/json"},"body":{"name":"a"}}"#),
                new: C.send(#"{"headers":{"Content-Type":"application/json; charset=utf-8"},"body":{"name":"a"}}"#)),
        ]

        @Test(arguments: equivalents)
        func theSameSaidOtherwiseIsNoChange(_ pair: Equivalent) throws {
            let result = try C.diff(pair.old, pair.new)
            #expect(result.changes.isEmpty, "\(C.shown(result))")
        }
    }
}
