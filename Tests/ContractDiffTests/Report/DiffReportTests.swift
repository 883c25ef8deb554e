import ContractJSON
import Foundation
import TestSupport
import Testing

@testable import ContractDiff

/// The four forms of a diff's result, on one hand-made result that holds each kind of change:
/// breaking, warning, safe, ignored, a contract's own, one on each side alone, one without a line.
struct DiffReportTests {
    static let golden = GoldenFiles()

    static func side(_ value: String?, _ file: String, _ line: Int? = nil, _ column: Int? = nil, _ pointer: String) -> Change.Side {
        Change.Side(value: value, file: file, line: line, column: column, pointer: pointer)
    }

    static let typeChanged = Change(
        rule: "response-type-changed", severity: .breaking, contractID: "products.get", caseName: "found", subject: "response body /price",
        message: "'price' is a string now: a client that reads a number fails",
        old: side("number", "main:contracts/schemas/product.json", 12, 9, "/properties/price/type"),
        new: side("string", "contracts/schemas/product.json", 12, 9, "/properties/price/type"),
        fixtures: ["products.get/found.json", "products.list/some.json"])
    static let contractRemoved = Change(
        rule: "contract-removed", severity: .breaking, contractID: "products.delete", caseName: nil, subject: "contract",
        message: "the contract is gone: a client that deletes products has nothing to call",
        old: side(nil, "main:contracts/products/delete.json", 1, 1, ""), new: nil, fixtures: ["products.delete/deleted.json"])
    static let enumWidened = Change(
        rule: "response-enum-widened", severity: .warning, contractID: "products.list", caseName: "some", subject: "response body /items/*/status",
        message: "'status' may be 'archived' now: a client that switches over every value may not handle it",
        old: side(#"["active","sold"]"#, "main:contracts/schemas/product.json", 20, 17, "/properties/status/enum"),
        new: side(#"["active","archived","sold"]"#, "contracts/schemas/product.json", 21, 17, "/properties/status/enum"),
        fixtures: ["products.list/some.json"])
    /// Its new side has no line: it is placed by its pointer.
    static let headerOptional = Change(
        rule: "response-header-optional", severity: .warning, contractID: "products.list", caseName: "some", subject: "response header 'ETag'",
        message: "'ETag' may be missing now: a client that caches by it finds none",
        old: side("required", "main:contracts/products/list.json", 18, 11, "/cases/0/response/headers/ETag"),
        new: side(nil, "contracts/products/list.json", nil, nil, "/cases/0/response/headers"))
    static let propertyAdded = Change(
        rule: "response-property-added", severity: .safe, contractID: "products.get", caseName: "found", subject: "response body /discount",
        message: "the response may hold 'discount' now", old: nil,
        new: side(nil, "contracts/schemas/product.json", 30, 5, "/properties/discount"), fixtures: ["products.get/found.json"])
    static let contractAdded = Change(
        rule: "contract-added", severity: .safe, contractID: "orders.get", caseName: nil, subject: "contract", message: "a new contract",
        old: nil, new: side(nil, "contracts/orders/get.json", 1, 1, ""))
    static let propertyRemoved = Change(
        rule: "response-property-removed", severity: .breaking, contractID: "products.get", caseName: "found", subject: "response body /legacyCode",
        message: "'legacyCode' is gone from the response", old: side(#"{"type":"string"}"#, "main:contracts/schemas/product.json", 40, 5, "/properties/legacyCode"),
        new: nil, fixtures: ["products.get/found.json"])

    static let result = DiffResult(
        old: "main:contracts", new: "contracts",
        changes: [typeChanged, contractRemoved, enumWidened, headerOptional, propertyAdded, contractAdded],
        ignored: [(propertyRemoved, "API-42: every client moved to 'sku' in 3.2")], unusedIgnores: ["00000000deadbeef"])

    /// A message and a value holding everything each form must escape.
    static let hostile = Change(
        rule: "response-type-changed", severity: .breaking, contractID: "x<&>", caseName: "c|`d`", subject: "response body /a",
        message: "a | b <c> & `d`\ne\u{1B}[31m", old: side("x`y|z\n<&>", "main:c.json", 1, 2, "/a"), new: side("`", "c.json", 1, 2, "/a"),
        fixtures: ["x<&>/c|`d`.json"])

    @Test func theTextReport() throws {
        try Self.golden.check(DiffReport.render(Self.result, as: .text, failOn: .breaking), against: "diff-report.txt")
    }

    @Test func theJSONReport() throws {
        try Self.golden.check(DiffReport.render(Self.result, as: .json, failOn: .breaking), against: "diff-report.json")
    }

    @Test func theMarkdownReport() throws {
        try Self.golden.check(DiffReport.render(Self.result, as: .markdown, failOn: .breaking), against: "diff-report.md")
    }

    @Test func theJUnitReport() throws {
        try Self.golden.check(DiffReport.render(Self.result, as: .junit, failOn: .breaking), against: "diff-report.xml")
    }

    @Test(arguments: [Change.Severity.breaking, .warning, .safe])
    func theJUnitReportIsValidAgainstTheStrictSchema(failOn: Change.Severity) throws {
        try JUnitSchema.validate(DiffReport.render(Self.result, as: .junit, failOn: failOn), "golden-\(failOn)")
        try JUnitSchema.validate(DiffReport.render(DiffResult(old: "a", new: "b", changes: []), as: .junit, failOn: failOn), "empty-\(failOn)")
        try JUnitSchema.validate(DiffReport.render(DiffResult(old: "a", new: "b", changes: [Self.hostile]), as: .junit, failOn: failOn), "hostile-\(failOn)")
    }

    @Test func failOnWarningMakesWarningsFailures() {
        let xml = DiffReport.render(Self.result, as: .junit, failOn: .warning)
        #expect(xml.contains(#"<testsuites name="contract diff" tests="4" failures="3" errors="0">"#))
        #expect(xml.contains(#"<failure message="&apos;ETag&apos; may be missing now: a client that caches by it finds none" type="response-header-optional">"#))
        let json = DiffReport.render(Self.result, as: .json, failOn: .warning)
        #expect(json.contains(#""failOn": "warning""#) && json.contains(#""exitCode": 1"#))
    }

    @Test func theVerdictIsRedExactlyWhenTheExitCodeIs() {
        func verdict(_ changes: [Change], _ failOn: Change.Severity) -> String {
            DiffMarkdownReport.verdict(DiffResult(old: "a", new: "b", changes: changes), failOn: failOn)
        }
        #expect(verdict([], .breaking) == "✅ No breaking change")
        #expect(verdict([Self.propertyAdded], .breaking) == "✅ No breaking change")
        #expect(verdict([Self.enumWidened, Self.headerOptional], .breaking) == "✅ No breaking change, 2 warnings")
        #expect(verdict([Self.enumWidened, Self.headerOptional], .warning) == "❌ 2 warnings")
        #expect(verdict([Self.enumWidened, Self.propertyAdded], .safe) == "❌ 2 changes")
        #expect(verdict([Self.typeChanged, Self.enumWidened], .warning) == "❌ 1 breaking change")
        #expect(verdict([Self.typeChanged, Self.contractRemoved], .breaking) == "❌ 2 breaking changes")
    }

    @Test func everyFormEscapesWhatItMust() throws {
        let result = DiffResult(old: "main:c", new: "c", changes: [Self.hostile])

        let text = DiffReport.render(result, as: .text, failOn: .breaking)
        let fingerprint = Self.hostile.fingerprint
        #expect(text == """
            c.json:1:2: breaking: x<&>/c|`d`: a | b <c> & `d`\\ne\\u{1B}[31m [response-type-changed] #\(fingerprint)
              was: main:c.json:1:2 (x`y|z\\n<&>)
              now: c.json:1:2 (`)
              fixtures: x<&>/c|`d`.json
            1 breaking, 0 warnings, 0 safe (0 ignored) between main:c and c

            """)

        let markdown = DiffReport.render(result, as: .markdown, failOn: .breaking)
        #expect(markdown.contains(
            #"| ❌ | `` x<&>/c\|`d` `` | a \| b &lt;c&gt; &amp; \`d\`\\ne\\u{1B}\[31m | ``x`y\|z\n<&>`` → `` ` `` | `response-type-changed` `#\#(fingerprint)` |"#
        ))
        #expect(markdown.contains("``x<&>/c|`d`.json``"), "outside a table a pipe needs no escape")
        #expect(!markdown.contains("\u{1B}"))

        let xml = DiffReport.render(result, as: .junit, failOn: .breaking)
        #expect(xml.contains(#"<testsuite name="x&lt;&amp;&gt;" tests="1" failures="1" errors="0">"#))
        #expect(xml.contains(#"<testcase classname="x&lt;&amp;&gt;" name="c|`d`">"#))
        #expect(xml.contains(#"<failure message="a | b &lt;c&gt; &amp; `d`\ne\u{1B}[31m" type="response-type-changed">"#))
        #expect(!xml.contains("\u{1B}"))

        // The JSON report is the one that keeps every value exactly as it is.
        let json = try JSONParser().parse(DiffReport.render(result, as: .json, failOn: .breaking))
        let change = try #require(json.value.objectValue?["changes"]?.arrayValue?.first?.objectValue)
        #expect(change["message"] == .string(Self.hostile.message))
        #expect(change["old"]?.objectValue?["value"] == .string("x`y|z\n<&>"))
        #expect(change["case"] == .string("c|`d`"))
    }

    @Test func aHugeDiffStaysUnderGitHubsCommentLimit() {
        // Every cell as long as it can be, and in the characters that grow most when escaped;
        // each change its own (one message each), so no two are one row.
        let long = String(repeating: "&|`<😀", count: 400)
        func change(_ index: Int, _ severity: Change.Severity) -> Change {
            Change(
                rule: "rule-\(long)", severity: severity, contractID: "c\(index)\(long)", caseName: "k\(long)", subject: "s\(index)", message: "\(index)\(long)",
                old: Self.side(long, "main:\(long).json", 1, 1, "/a"), new: Self.side(long, "\(long).json", 1, 1, "/a"),
                fixtures: (0..<2).map { "f\(index)-\($0)\(long.prefix(200)).json" })
        }
        let severities: [Change.Severity] = [.breaking, .warning, .safe]
        let changes = (0..<5_000).map { change($0, severities[$0 % 3]) }
        let ignored = (0..<5_000).map { (change: change($0, .breaking), reason: long) }
        let unused = (0..<5_000).map { String(format: "%016x", $0) }
        let result = DiffResult(old: long, new: long, changes: changes, ignored: ignored, unusedIgnores: unused)
        let markdown = DiffReport.render(result, as: .markdown, failOn: .breaking)
        #expect(markdown.utf8.count < 65_536, "\(markdown.utf8.count) bytes")
        #expect(markdown.contains("more changes: the JSON report (`--report json=PATH`) has every one."))
        #expect(markdown.contains("more safe changes"))
        #expect(markdown.contains("more ignored changes"))
        #expect(markdown.hasSuffix(" more.\n"), "the ignore entries no change met come last, cut short too")
    }

    /// A shared schema changed once reaches every case that uses it: one entry, naming the rest.
    @Test func oneEditSeenFromSeveralCasesIsOneEntry() {
        let changes = ["found", "created", "first-page"].map { (name: String) in
            Change(
                rule: "response-type-changed", severity: .breaking, contractID: "products", caseName: name, subject: "response body /price",
                message: "response body /price: type changed from number to string", old: Self.side("number", "main:schemas/product.json", 24, 24, "/$defs/Price/type"),
                new: Self.side("string", "schemas/product.json", 10, 24, "/properties/price/type"), fixtures: ["products/\(name).json"])
        }
        let result = DiffResult(old: "main:contracts", new: "contracts", changes: changes)
        let markdown = DiffReport.render(result, as: .markdown, failOn: .breaking)
        #expect(markdown.components(separatedBy: "type changed from number to string").count == 2, "one row: \(markdown)")
        #expect(markdown.contains("`products/created` and 2 more cases"), "\(markdown)")
        let text = DiffReport.render(result, as: .text, failOn: .breaking)
        #expect(text.components(separatedBy: "[response-type-changed]").count == 2, "\(text)")
        #expect(text.contains("  also in 2 more cases: products/first-page #"), "\(text)")
        #expect(DiffReport.render(result, as: .json, failOn: .breaking).components(separatedBy: "\"response-type-changed\"").count == 4, "tools get every case")
    }

    @Test func theSameResultGivesTheSameBytesWhateverTheOrderItCameIn() {
        let shuffled = DiffResult(
            old: "main:contracts", new: "contracts",
            changes: [Self.contractAdded, Self.headerOptional, Self.propertyAdded, Self.typeChanged, Self.enumWidened, Self.contractRemoved],
            ignored: [(Self.propertyRemoved, "API-42: every client moved to 'sku' in 3.2")], unusedIgnores: ["00000000deadbeef"])
        for kind in DiffReportKind.allCases {
            #expect(DiffReport.render(shuffled, as: kind, failOn: .breaking) == DiffReport.render(Self.result, as: kind, failOn: .breaking), "\(kind)")
        }
    }
}

/// xmllint's verdict against the strict JUnit schema that verify's reports are checked with
/// (Tests/ContractVerifierTests/Schemas/junit-10.xsd, read where it is).
enum JUnitSchema {
    static let schema = SharedData.packageRoot.appendingPathComponent("Tests/ContractVerifierTests/Schemas/junit-10.xsd").path

    static func validate(_ xml: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diff-junit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).xml")
        try Data(xml.utf8).write(to: file)
        #expect(FileManager.default.fileExists(atPath: schema), "the schema is missing at \(schema)", sourceLocation: sourceLocation)
        let xmllint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let tool = try #require(xmllint, "xmllint is missing: run scripts/setup (it installs libxml2-utils)", sourceLocation: sourceLocation)
        let (status, _, stderr) = try ChildProcess.run(tool, ["--noout", "--schema", schema, file.path])
        #expect(status == 0, "\(name): \(String(decoding: stderr, as: UTF8.self))", sourceLocation: sourceLocation)
    }
}
