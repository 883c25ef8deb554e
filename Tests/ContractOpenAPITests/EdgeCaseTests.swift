import ContractJSON
import ContractModel
import ContractOpenAPI
import Foundation
import Testing

/// Documents that once broke the import (found in review), each pinned to what it should do.
struct EdgeCaseTests {
    func importYAML(_ yaml: String, values: [String: JSONValue] = [:]) throws(DiagnosticsError) -> ImportResult {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("edge-\(UUID().uuidString).yaml")
        try? yaml.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try OpenAPIImporter.importDocument(path: url.path, shownAs: "api.yaml", values: values)
    }

    func text(_ result: ImportResult, _ path: String) -> String {
        result.files.first { $0.path == path }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "<no \(path)>"
    }

    func lintErrors(_ result: ImportResult) -> [String] {
        let set = ContractLoader.load(files: result.tree, directory: ".")
        return LintReport(set).diagnostics.filter { $0.severity == .error }.map(\.rendered)
    }

    static func document(paths: String, components: String = "{}") -> String {
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n\(paths)\ncomponents:\n  schemas: \(components)\n"
    }

    @Test func referencesIntoAComponentKeepOneFragment() throws {
        let result = try importYAML(Self.document(
            paths: "  /a:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Wrap/properties/y'}}}}",
            components: "{Wrap: {properties: {y: {type: string}}, nullable: true}}"))
        #expect(text(result, "get-a.json").contains(#""$ref": "schemas/Wrap.json#/properties/y""#))
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }

    @Test func aliasBombsAreRefusedQuickly() {
        var yaml = "openapi: 3.0.3\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { yaml += "\(Character(Unicode.Scalar(UInt8(97 + level)))): &\(Character(Unicode.Scalar(UInt8(97 + level)))) [" + Array(repeating: "*\(Character(Unicode.Scalar(UInt8(96 + level))))", count: 10).joined(separator: ", ") + "]\n" }
        #expect { try importYAML(yaml) } throws: { ($0 as? DiagnosticsError)?.diagnostics.first?.message.contains("aliases expand") == true }
    }

    @Test func mergeKeysAreApplied() throws {
        let result = try importYAML(Self.document(
            paths: "  /a:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/B'}}}}",
            components: "\n    Base: &base {type: object, properties: {id: {type: integer}}}\n    B:\n      <<: *base\n      additionalProperties: false"))
        #expect(text(result, "schemas/B.json").contains(#""properties""#))
        #expect(!text(result, "schemas/B.json").contains("<<"))
    }

    @Test func componentNamesThatLookAlikeGetTheirOwnFiles() throws {
        let result = try importYAML(Self.document(
            paths: "  /a:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {anyOf: [{$ref: '#/components/schemas/Pet'}, {$ref: '#/components/schemas/pet'}, {$ref: '#/components/schemas/.Pet'}]}}}}",
            components: "{Pet: {type: string}, pet: {type: integer}, .Pet: {type: boolean}}"))
        let schemaFiles = result.files.map(\.path).filter { $0.hasPrefix("schemas/") }
        #expect(schemaFiles.count == 3)
        #expect(Set(schemaFiles.map { $0.lowercased() }).count == 3)
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }

    @Test func exampleTextIsNeverAPlaceholder() throws {
        let result = try importYAML(Self.document(
            paths: "  /a/{p}:\n    get:\n      parameters:\n        - {name: p, in: path, required: true, schema: {type: string}, example: '${env:HOME}'}\n        - {name: q, in: query, schema: {type: string}, example: '${x}'}\n      responses:\n        '200': {description: ok}"))
        let contract = text(result, "get-a-p.json")
        #expect(contract.contains(#""p": "$${env:HOME}""#))
        #expect(contract.contains(#""q": "$${x}""#))
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }

    @Test func twoPathParametersStayTwoPlaceholders() throws {
        let result = try importYAML(Self.document(
            paths: "  /c/{pet-id}/{pet_id}:\n    get:\n      parameters:\n        - {name: pet-id, in: path, required: true, schema: {type: integer}, example: 1}\n        - {name: pet_id, in: path, required: true, schema: {type: integer}, example: 2}\n      responses:\n        '200': {description: ok}"))
        let contract = text(result, "get-c-pet-id-pet_id.json")
        #expect(contract.contains(#""path": "/c/{pet_id_}/{pet_id}""#) || contract.contains(#""path": "/c/{pet_id}/{pet_id_}""#), "\(contract)")
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }

    @Test func headResponsesExpectNoBody() throws {
        let result = try importYAML(Self.document(
            paths: "  /a:\n    head:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {type: object}}}}"))
        #expect(!text(result, "head-a.json").contains(#""schema""#))
    }

    /// A required response header whose name is not an HTTP token, or that repeats another's
    /// name in another case, is left out with a warning at it; the operation and its other
    /// headers stay, and the tree lints clean.
    @Test func aResponseHeaderNamedWithASpaceIsLeftOutNotTheOperation() throws {
        let result = try importYAML(Self.document(
            paths: "  /h:\n    get:\n      operationId: getH\n      responses:\n        '200':\n          description: ok\n          headers:\n"
                + "            X Bad Name: {required: true, schema: {type: string}}\n            X-Ok: {required: true, schema: {type: string}}\n"
                + "            x-ok: {required: true, schema: {type: string}}\n"
                + "          content: {application/json: {schema: {type: object}}}"))
        let contract = text(result, "getH.json")
        #expect(contract.contains("X-Ok") && !contract.contains("X Bad Name"), "\(contract)")
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
        #expect(result.diagnostics.contains { $0.message.contains("response header 'X Bad Name' is not an HTTP token") }, "\(result.diagnostics.map(\.message))")
        #expect(result.diagnostics.contains { $0.message.contains("response header 'x-ok' repeats 'X-Ok'") }, "\(result.diagnostics.map(\.message))")
    }
}

extension EdgeCaseTests {
    /// The spec's own pattern: branches sharing a base through `allOf`, told apart by a
    /// discriminator. Without the discriminator's values every cat is also a dog.
    @Test func discriminatedBranchesTellThemselvesApart() throws {
        let result = try importYAML(Self.document(
            paths: "  /pets:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}, example: [{petType: cat, name: Tom}, {petType: Dog, bark: true}]}}}",
            components: """

                Pet: {oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}], discriminator: {propertyName: petType, mapping: {cat: '#/components/schemas/Cat'}}}
                Base: {type: object, required: [petType], properties: {petType: {type: string}}}
                Cat: {allOf: [{$ref: '#/components/schemas/Base'}, {properties: {name: {type: string}}}]}
                Dog: {allOf: [{$ref: '#/components/schemas/Base'}, {properties: {bark: {type: boolean}}}]}
            """))
        #expect(result.diagnostics.filter { $0.severity == .warning }.isEmpty, "\(result.diagnostics.map(\.rendered))")
        #expect(text(result, "get-pets.json").contains(#""example""#))
        let pet = text(result, "schemas/Pet.json")
        #expect(pet.contains(#""const": "cat""#) && pet.contains(#""const": "Dog""#), "\(pet)")
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }
}

extension EdgeCaseTests {
    /// Without a mapping the discriminator's value is the component's name, unless the component
    /// pins the property itself (`type: {enum: [artist]}`): then no name is required, which no
    /// real response would carry.
    @Test func aBranchThatPinsItsDiscriminatorKeepsItsOwnValue() throws {
        let result = try importYAML(Self.document(
            paths: "  /items:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}",
            components: """

                Item: {oneOf: [{$ref: '#/components/schemas/Artist'}, {$ref: '#/components/schemas/Track'}], discriminator: {propertyName: type}}
                Artist: {type: object, required: [type], properties: {type: {type: string, enum: [artist]}}}
                Track: {type: object, required: [type], properties: {type: {type: string}}}
            """))
        let item = text(result, "schemas/Item.json")
        #expect(!item.contains(#""const": "Artist""#) && item.contains(#""const": "Track""#), "\(item)")
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }

    @Test func madeUpValuesKeepTheirBoundsAndArraysTheirStyle() throws {
        let result = try importYAML(Self.document(paths: """
              /o/{ids}:
                get:
                  parameters:
                    - {name: ids, in: path, required: true, schema: {type: array, items: {type: integer}}, example: [1, 2]}
                    - {name: tags, in: query, explode: false, schema: {type: array, items: {type: string}}, example: [x, y]}
                    - {name: limit, in: query, required: true, schema: {type: integer, minimum: 5, exclusiveMinimum: true, multipleOf: 4}}
                  responses:
                    '200': {description: ok}
            """))
        let contract = text(result, "get-o-ids.json")
        #expect(contract.contains(#""ids": "1,2""#))
        #expect(contract.contains(#""tags": "x,y""#))
        #expect(contract.contains(#""limit": 8"#), "\(contract)")
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }
}

extension EdgeCaseTests {
    @Test func textRequestBodiesAreSentAsText() throws {
        let result = try importYAML(Self.document(
            paths: "  /notes:\n    post:\n      requestBody: {required: true, content: {text/plain: {schema: {type: string}, example: 'hello ${name}'}}}\n      responses:\n        '201': {description: created}"))
        let contract = text(result, "post-notes.json")
        #expect(contract.contains(#""text": "hello $${name}""#))
        #expect(contract.contains(#""Content-Type": "text/plain""#))
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }

    @Test func responsesThatAreNotJSONHaveTheirContentTypeCheckedAndSayTheBodyIsNot() throws {
        let result = try importYAML(Self.document(
            paths: "  /report:\n    get:\n      responses:\n        '200': {description: ok, content: {text/csv: {schema: {type: string}}}}\n"
                + "  /any:\n    get:\n      responses:\n        '200': {description: ok, content: {'text/*': {schema: {type: string}}}}"))
        let report = text(result, "get-report.json")
        #expect(report.contains(#""pattern": "^text/csv""#))
        #expect(!report.contains(#""schema""#) && !report.contains(#""text""#))
        #expect(!text(result, "get-any.json").contains("Content-Type"), "a wildcard names no type to check")
        let warnings = result.diagnostics.filter { $0.message.contains("bodies are not checked by an imported contract") }
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.rendered.contains("[/paths/~1report/get/responses/200/content/text~1csv]") })
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }

    @Test func aDefaultResponseStandsForSuccessWhenNoneIsDocumented() throws {
        let result = try importYAML(Self.document(
            paths: "  /things:\n    get:\n      operationId: listThings\n      responses:\n        '404': {description: missing}\n"
                + "        default: {description: any, content: {application/json: {schema: {type: array, items: {type: string}}}}}"))
        let contract = text(result, "listThings.json")
        #expect(contract.contains(#""status": "2XX""#))
        #expect(contract.contains(#""type": "array""#))
        #expect(result.diagnostics.contains { $0.message.contains("'default' stands for it") })
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }

    @Test func madeUpStringsMatchTheirPattern() throws {
        let result = try importYAML(Self.document(
            paths: "  /orders:\n    get:\n      parameters:\n        - {name: code, in: query, required: true, schema: {type: string, pattern: '^[A-Z]{3}-[0-9]{4}$'}}\n"
                + "      responses:\n        '200': {description: ok}"))
        #expect(text(result, "get-orders.json").contains(#""code": "ABC-0123""#))
    }

    @Test func objectQueryParametersAreSentInTheirStyle() throws {
        let parameter = { (name: String, style: String, explode: Bool) in
            "        - {name: \(name), in: query, style: \(style), explode: \(explode), schema: {type: object}, example: {color: red, size: 2}}\n"
        }
        let result = try importYAML(Self.document(
            paths: "  /things:\n    get:\n      parameters:\n" + parameter("filter", "deepObject", true) + parameter("page", "form", true)
                + parameter("sort", "form", false) + "      responses:\n        '200': {description: ok}"))
        let contract = text(result, "get-things.json")
        #expect(contract.contains(#""filter[color]": "red""#) && contract.contains(#""filter[size]": 2"#))
        #expect(contract.contains(#""color": "red""#) && contract.contains(#""size": 2"#))
        #expect(contract.contains(#""sort": "color,red,size,2""#))
        #expect(lintErrors(result).isEmpty, "\(lintErrors(result))")
    }
}
