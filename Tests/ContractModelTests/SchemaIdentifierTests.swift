import ContractJSON
import ContractModel
import ContractSchema
import Testing

/// `$id` done as JSON Schema has it: a subschema's `$id` changes the base URI of the `$ref`s under
/// it, shared files are reachable by their absolute `$id`, URIs a tree publishes its files at
/// resolve to those files, and lint agrees with the validator about all of it.
struct SchemaIdentifierTests {
    func load(_ files: [String: String]) -> ContractSet {
        let sources = files.keys.sorted().map { SourceFile(path: "c/" + $0, relativePath: $0, bytes: Array(files[$0, default: ""].utf8)) }
        return ContractLoader.load(files: sources, directory: "c")
    }

    func rendered(_ files: [String: String]) -> [String] {
        load(files).diagnostics.map(\.rendered)
    }

    /// A contract with one case per schema, each with its example.
    func contract(_ cases: [(schema: String, example: String?)]) -> String {
        let written = cases.enumerated().map { index, entry in
            let example = entry.example.map { #", "example": \#($0)"# } ?? ""
            return #"{ "name": "c\#(index)", "response": { "status": 200, "schema": \#(entry.schema)\#(example) } }"#
        }
        return #"{ "id": "x", "request": { "method": "GET", "path": "/" }, "cases": [\#n\#(written.joined(separator: ",\n"))\#n] }"#
    }

    // MARK: What lint refused

    @Test func aFragmentUnderANestedIdMeansThatResource() {
        let schema = ##"{ "$id": "http://example.com/root.json", "$defs": { "A": { "$id": "nested.json", "$defs": { "inner": { "type": "integer" } }, "$ref": "#/$defs/inner" } }, "$ref": "nested.json" }"##
        #expect(rendered(["x.json": contract([(schema, "1")])]) == [])
        #expect(rendered(["x.json": contract([(schema, #""one""#)])]) == [
            "c/x.json:2:247: error: the 'example' does not match its schema: expected integer, found string 'one' (at c/x.json#/cases/0/response/schema/$defs/A/$defs/inner/type) [/cases/0/response/example]",
        ])
    }

    @Test func relativeReferencesUnderAnAbsoluteIdResolveAgainstIt() {
        // "refs with relative uris and defs" of the official suite.
        let schema = ##"""
            { "$id": "http://example.com/schema-relative-uri-defs1.json",
              "properties": { "foo": { "$id": "schema-relative-uri-defs2.json", "$defs": { "inner": { "properties": { "bar": { "type": "string" } } } }, "$ref": "#/$defs/inner" } },
              "$ref": "schema-relative-uri-defs2.json" }
            """##
        #expect(rendered(["x.json": contract([(schema, #"{ "foo": { "bar": "a" }, "bar": "a" }"#)])]) == [])
        #expect(load(["x.json": contract([(schema, #"{ "foo": { "bar": 1 }, "bar": "a" }"#)])]).diagnostics.map(\.message) == [
            "the 'example' does not match its schema: expected string, found integer 1 (at c/x.json#/cases/0/response/schema/properties/foo/$defs/inner/properties/bar/type)",
        ])
    }

    @Test func urnIdentifiersResolve() {
        let schemas = [
            ##"{ "$id": "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "properties": { "foo": { "$ref": "#/$defs/bar" } }, "$defs": { "bar": { "type": "string" } } }"##,
            ##"{ "$id": "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed", "properties": { "foo": { "$ref": "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed#/$defs/bar" } }, "$defs": { "bar": { "type": "string" } } }"##,
            ##"{ "$id": "urn:uuid:deadbeef-1234-ff00-00ff-4321feebdaed", "properties": { "foo": { "$ref": "urn:uuid:deadbeef-1234-ff00-00ff-4321feebdaed#something" } }, "$defs": { "bar": { "$anchor": "something", "type": "string" } } }"##,
        ]
        #expect(rendered(["x.json": contract(schemas.map { ($0, #"{ "foo": "a" }"#) })]) == [])
        #expect(load(["x.json": contract(schemas.map { ($0, #"{ "foo": 12 }"#) })]).diagnostics.count == 3)
    }

    // MARK: Shared files by `$id`

    let pet = ##"{ "$id": "https://example.com/schemas/pet.json", "type": "object", "required": ["name"], "properties": { "name": { "type": "string" }, "tag": { "$ref": "tag.json" }, "id": { "$ref": "#id" } }, "$defs": { "Id": { "$anchor": "id", "type": "integer" } } }"##
    let tag = ##"{ "$id": "https://example.com/schemas/tag.json", "type": "string", "maxLength": 3 }"##

    @Test func aSharedFileIsReachableByItsAbsoluteId() {
        let files = [
            "schemas/pet.json": pet,
            "schemas/tag.json": tag,
            "x.json": contract([
                (##"{ "$ref": "https://example.com/schemas/pet.json" }"##, #"{ "name": "Rex", "tag": "dog", "id": 1 }"#),
                (##"{ "$ref": "https://example.com/schemas/pet.json#id" }"##, "7"),
                (##"{ "$ref": "https://example.com/schemas/pet.json#/$defs/Id" }"##, "7"),
                (##"{ "type": "array", "items": { "$ref": "schemas/pet.json" } }"##, #"[{ "name": "Rex" }]"#),
            ]),
        ]
        #expect(rendered(files) == [])
        // Errors found through the `$id` are located in the file a person would open.
        var broken = files
        broken["x.json"] = contract([(##"{ "$ref": "https://example.com/schemas/pet.json" }"##, #"{ "name": "Rex", "tag": "doggy" }"#)])
        #expect(rendered(broken) == [
            "c/x.json:2:143: error: the 'example' does not match its schema: expected at most 3 characters, found 5 in string 'doggy' (at c/schemas/tag.json#/maxLength) [/cases/0/response/example/tag]",
        ])
    }

    @Test func verifyAndFixturesCompileThroughTheSameIdentifiers() throws {
        let set = load([
            "schemas/pet.json": pet,
            "schemas/tag.json": tag,
            "x.json": contract([(##"{ "$ref": "https://example.com/schemas/pet.json" }"##, nil)]),
        ])
        #expect(set.diagnostics.isEmpty)
        guard case .json(let reference, _) = try #require(set.contracts.first?.cases.first).response.body.base else {
            Issue.record("the case has no schema")
            return
        }
        let schema = try SchemaCatalog(set).compile(reference)
        #expect(schema.isValid(try JSONParser().parse(#"{ "name": "Rex", "tag": "dog" }"#).value))
        #expect(!schema.isValid(try JSONParser().parse(#"{ "name": "Rex", "tag": "doggy" }"#).value))
    }

    @Test func anUnknownAbsoluteURIIsADiagnostic() {
        let files = [
            "schemas/pet.json": pet,
            "schemas/tag.json": tag,
            "x.json": contract([
                (##"{ "$ref": "https://example.com/schemas/pett.json" }"##, nil),
                (##"{ "$ref": "urn:uuid:00000000-0000-0000-0000-000000000000" }"##, nil),
            ]),
        ]
        #expect(rendered(files) == [
            "c/schemas/pet.json:1:1: warning: schema file is not referenced by any contract",
            "c/schemas/tag.json:1:1: warning: schema file is not referenced by any contract",
            "c/x.json:2:66: error: $ref 'https://example.com/schemas/pett.json': no schema in the tree has the '$id' 'https://example.com/schemas/pett.json', and nothing is fetched from the network; the nearest known '$id's: 'https://example.com/schemas/pet.json', 'https://example.com/schemas/tag.json' [/cases/0/response/schema/$ref]",
            "c/x.json:3:66: error: $ref 'urn:uuid:00000000-0000-0000-0000-000000000000': no schema in the tree has the '$id' 'urn:uuid:00000000-0000-0000-0000-000000000000', and nothing is fetched from the network; the nearest known '$id's: 'https://example.com/schemas/pet.json', 'https://example.com/schemas/tag.json' [/cases/1/response/schema/$ref]",
        ])
        // With no `$id` in the tree there is nothing to suggest; a bundled meta-schema is suggested for a likely typo.
        #expect(rendered(["x.json": contract([
            (##"{ "$ref": "https://example.com/a.json" }"##, nil),
            (##"{ "$ref": "https://json-schema.org/draft/2020-12/schemas" }"##, nil),
        ])]) == [
            "c/x.json:2:66: error: $ref 'https://example.com/a.json': no schema in the tree has the '$id' 'https://example.com/a.json', and nothing is fetched from the network [/cases/0/response/schema/$ref]",
            "c/x.json:3:66: error: $ref 'https://json-schema.org/draft/2020-12/schemas': no schema in the tree has the '$id' 'https://json-schema.org/draft/2020-12/schemas', and nothing is fetched from the network; the nearest known '$id's: 'https://json-schema.org/draft/2020-12/schema' [/cases/1/response/schema/$ref]",
        ])
    }

    @Test func aRelativeReferenceUnderAnIdDoesNotMeanTheFileBesideIt() {
        let files = [
            "schemas/pet.json": ##"{ "$id": "https://example.com/schemas/pet.json", "properties": { "tag": { "$ref": "tag.json" } } }"##,
            "schemas/tag.json": ##"{ "type": "string" }"##,
            "x.json": contract([(##"{ "$ref": "schemas/pet.json" }"##, nil), (##"{ "$ref": "schemas/tag.json" }"##, nil)]),
        ]
        #expect(rendered(files) == [
            "c/schemas/pet.json:1:83: error: $ref 'tag.json' resolves to 'https://example.com/schemas/tag.json' against the '$id' 'https://example.com/schemas/pet.json' in force here: no schema in the tree has that '$id', and nothing is fetched from the network; the nearest known '$id's: 'https://example.com/schemas/pet.json'; the file 'tag.json' is not meant: under an '$id', a relative '$ref' resolves against the '$id', not the file's folder [/properties/tag/$ref]",
        ])
    }

    @Test func aMissingDefinitionUnderANestedIdIsStillAnError() {
        let schema = ##"{ "$id": "http://example.com/root.json", "$defs": { "x": { "type": "string" }, "A": { "$id": "nested.json", "$defs": { "inner": { "type": "integer" } }, "$ref": "#/$defs/x" } }, "$ref": "nested.json" }"##
        #expect(rendered(["x.json": contract([(schema, "1")])]) == [
            "c/x.json:2:217: error: $ref '#/$defs/x' does not resolve in 'http://example.com/nested.json' (the '$id' in force here): no member 'x' in the object at '/$defs' [/cases/0/response/schema/$defs/A/$ref]",
        ])
        // An anchor declared in another resource is not found from this one either.
        let anchor = ##"{ "$id": "http://example.com/root.json", "$defs": { "A": { "$id": "nested.json", "$anchor": "a" } }, "$ref": "#a" }"##
        #expect(rendered(["x.json": contract([(anchor, nil)])]) == [
            "c/x.json:2:165: error: $ref '#a' names the anchor 'a', which no '$anchor' in 'http://example.com/root.json' declares [/cases/0/response/schema/$ref]",
        ])
    }

    @Test func draft7IgnoresAnIdBesideRefAndReadsPlainNameIds() {
        let schemas = [
            // "$ref prevents a sibling $id from changing the base uri" of the official suite.
            ##"{ "$schema": "http://json-schema.org/draft-07/schema#", "$id": "http://example.com/sibling_id/base/", "definitions": { "foo": { "$id": "http://example.com/sibling_id/foo.json", "type": "string" }, "base_foo": { "$id": "foo.json", "type": "number" } }, "allOf": [{ "$id": "http://example.com/sibling_id/", "$ref": "foo.json" }] }"##,
            ##"{ "$schema": "http://json-schema.org/draft-07/schema#", "definitions": { "A": { "$id": "#foo", "type": "integer" } }, "$ref": "#foo" }"##,
        ]
        #expect(rendered(["x.json": contract(schemas.map { ($0, "1") })]) == [])
        #expect(load(["x.json": contract(schemas.map { ($0, #""a""#) })]).diagnostics.count == 2)
    }

    @Test func twoFilesDeclaringOneIdAreAnError() {
        let files = [
            "schemas/a.json": ##"{ "$id": "https://example.com/thing.json", "type": "string" }"##,
            "schemas/b.json": ##"{ "$id": "https://example.com/thing.json", "type": "integer" }"##,
            "x.json": contract([(##"{ "$ref": "https://example.com/thing.json" }"##, nil)]),
        ]
        #expect(rendered(files) == [
            "c/schemas/b.json:1:1: warning: schema file is not referenced by any contract",
            "c/schemas/b.json:1:10: error: 'https://example.com/thing.json' names two schemas: this one and c/schemas/a.json; a reference to it could mean either, so give each its own '$id' [/$id]",
        ])
    }

    @Test func aReferenceToAContractIsNotToASchema() {
        let files = [
            "y.json": #"{ "id": "y", "request": { "method": "GET", "path": "/" }, "cases": [{ "name": "a", "response": { "status": 200, "schema": { "type": "string" } } }] }"#,
            "x.json": contract([(##"{ "$ref": "y.json#/cases/0/response/schema" }"##, nil)]),
        ]
        #expect(rendered(files) == [
            "c/x.json:2:66: error: $ref 'y.json#/cases/0/response/schema' points to 'c/y.json', which is a contract, not a shared schema: shared schemas are the files in folders named 'schemas' [/cases/0/response/schema/$ref]",
        ])
    }

    // MARK: The tree's settings

    @Test func formatAssertionIsATreeSetting() throws {
        let files = ["x.json": contract([(##"{ "type": "string", "format": "date-time" }"##, #""yesterday""#)])]
        #expect(rendered(files) == [
            "c/x.json:2:112: error: the 'example' does not match its schema: expected a valid date-time, found string 'yesterday' (at c/x.json#/cases/0/response/schema/format) [/cases/0/response/example]",
        ])
        var off = files
        off["contract.json"] = #"{ "formatAssertion": false }"#
        let set = load(off)
        #expect(set.diagnostics.isEmpty)
        #expect(set.settings.formatAssertion == false)
        #expect(SchemaCatalog(set).assertsFormats == false)
        // `--no-format-assertion` turns it off for a run; it never turns a tree's setting back on.
        #expect(SchemaCatalog(load(files), assertsFormats: false).assertsFormats == false)
        #expect(SchemaCatalog(set, assertsFormats: true).assertsFormats == false)
    }

    @Test func aTreeCanPublishAFolderAtAURI() {
        let files = [
            "contract.json": #"{ "schemaURIs": { "schemas/acme/": "https://schemas.acme.test/v1/" } }"#,
            "schemas/acme/money.json": ##"{ "type": "object", "properties": { "amount": { "type": "number" }, "currency": { "$ref": "common/currency.json" } } }"##,
            "schemas/acme/common/currency.json": ##"{ "type": "string", "pattern": "^[A-Z]{3}$" }"##,
            "x.json": contract([
                (##"{ "$ref": "https://schemas.acme.test/v1/money.json" }"##, #"{ "amount": 1, "currency": "EUR" }"#),
                (##"{ "$ref": "schemas/acme/money.json" }"##, #"{ "amount": 1, "currency": "EUR" }"#),
                (##"{ "$ref": "https://schemas.acme.test/v1/money.json" }"##, #"{ "amount": 1, "currency": "euro" }"#),
                (##"{ "$ref": "https://schemas.acme.test/v1/mony.json" }"##, nil),
            ]),
        ]
        #expect(rendered(files) == [
            "c/x.json:4:149: error: the 'example' does not match its schema: expected a string matching '^[A-Z]{3}$', found string 'euro' (at c/schemas/acme/common/currency.json#/pattern) [/cases/2/response/example/currency]",
            "c/x.json:5:66: error: $ref 'https://schemas.acme.test/v1/mony.json': no schema in the tree has the '$id' 'https://schemas.acme.test/v1/mony.json', and nothing is fetched from the network; the nearest known '$id's: 'https://schemas.acme.test/v1/money.json', 'https://schemas.acme.test/v1/common/currency.json' [/cases/3/response/schema/$ref]",
        ])
    }

    @Test func theSettingsFileIsCheckedLikeAContract() {
        let contractFile = contract([(##"{ "type": "string" }"##, nil)])
        #expect(rendered(["x.json": contractFile, "contract.json": #"{ "formatAsertion": false, "schemaURIs": { "api": "https://a.test/", "schemas/b": "https://b.test", "schemas/c/../d": "https://d.test/" } }"#]) == [
            "c/contract.json:1:3: error: unknown key 'formatAsertion' in the tree settings, did you mean 'formatAssertion'? [/formatAsertion]",
            "c/contract.json:1:44: error: 'api' is not inside a folder named 'schemas': the files there are contracts, not shared schemas [/schemaURIs/api]",
            "c/contract.json:1:83: error: the URI of 'schemas/b' must be an absolute URI other than 'file:' that ends with '/' and has no query or fragment, such as 'https://schemas.example.com/', found \"https://b.test\" [/schemaURIs/schemas~1b]",
            "c/contract.json:1:101: error: 'schemaURIs' names folders by their path inside the tree, such as 'schemas/acme', found 'schemas/c/../d' [/schemaURIs/schemas~1c~1..~1d]",
        ])
        #expect(rendered(["x.json": contractFile, "contract.json": #"{ "formatAssertion": "no", "schemaURIs": { "schemas/none": "https://none.test/" } }"#]) == [
            "c/contract.json:1:22: error: 'formatAssertion' must be true or false, found \"no\" [/formatAssertion]",
            "c/contract.json:1:44: warning: no shared schema file is in 'schemas/none', which 'schemaURIs' publishes at 'https://none.test/' [/schemaURIs/schemas~1none]",
        ])
        // A contract kept at the root under the settings' name is told to move.
        #expect(rendered(["x.json": contractFile, "contract.json": contractFile.replacingOccurrences(of: "\"x\"", with: "\"y\"")]) == [
            "c/contract.json:1:1: error: 'contract.json' at the root of the tree holds the tree's settings ('formatAssertion', 'schemaURIs'), not a contract: give this contract another file name",
        ])
        // Anywhere else, `contract.json` is a contract like any other file.
        let set = load(["sub/contract.json": contractFile])
        #expect(set.diagnostics.isEmpty)
        #expect(set.contracts.count == 1)
        // A tree of settings alone has no contracts.
        #expect(rendered(["contract.json": "{}"]) == ["c: error: no contract files (*.json outside 'schemas' folders) found"])
    }
}
