import ContractJSON
import TestSupport
import Testing

@testable import ContractVerifier

/// A report's `setup` (the setup steps a case's reproduction sends first) read back by
/// `contract merge` from a file anyone could have edited: bounded in count and in each request
/// as the case's own `request` is, every malformed step refused where it is, and a report from
/// before the member existed read as it always was.
struct SetupChainReadTests {
    /// The shared run's JSON report, whose case at `/cases/4` has one setup step.
    static let document: JSONValue = {
        let text = JSONReport.render(ShardReportTests.report())
        return (try? JSONParser().parse(text).value) ?? .null
    }()

    static let setup = JSONPointer(tokens: ["cases", "4", "setup"])

    /// What reading the report with the value at `pointer` replaced says: its diagnostics, or
    /// none when it was read.
    static func problems(replacing pointer: JSONPointer, with value: JSONValue) -> [String] {
        let edited = JSONMutations.replacing(pointer, in: document, with: value)
        guard case .failure(let error) = ShardReport.read(CanonicalJSONWriter(style: .pretty).bytes(edited), file: "r.json") else { return [] }
        return error.diagnostics.map(\.rendered)
    }

    static func string(_ count: Int) -> JSONValue {
        .string(String(repeating: "u", count: count))
    }

    @Test func theChainIsReadBack() throws {
        #expect(Self.document.objectValue?["cases"]?.arrayValue?[4].objectValue?["setup"]?.arrayValue?.count == 1, "the shared run has a chain")
        let read = try ShardReport.read(CanonicalJSONWriter(style: .pretty).bytes(Self.document), file: "r.json").get()
        #expect(read.results[4].chain == [ReportTests.createStep])
        #expect(read.results.filter { !$0.chain.isEmpty }.count == 1)
    }

    @Test func aReportWithoutTheMemberStillReads() throws {
        var object = try #require(Self.document.objectValue)
        var cases = try #require(object["cases"]?.arrayValue)
        var deleted = try #require(cases[4].objectValue)
        deleted["setup"] = nil
        cases[4] = .object(deleted)
        object["cases"] = .array(cases)
        let read = try ShardReport.read(CanonicalJSONWriter(style: .pretty).bytes(.object(object)), file: "old.json").get()
        #expect(read.results.allSatisfy { $0.chain.isEmpty })
    }

    @Test(arguments: [
        // What, where, and what the message must say.
        ("not a list", setup, JSONValue.string("create"), "expected an array, found 'create'", "/cases/4/setup"),
        ("too many", setup, .array(Array(repeating: .null, count: ReportLimits.maxSetupRequests + 1)),
            "expected at most 10,000 setup requests in a case, found 10,001", "/cases/4/setup"),
        ("not a step", setup.appending("0"), 3, "expected a setup step object, found 3", "/cases/4/setup/0"),
        ("no name", setup.appending("0"), ["request": ["method": "GET", "url": "u", "headers": []]], "missing 'name'", "/cases/4/setup/0"),
        ("no request", setup.appending("0"), ["name": "create"], "missing 'request'", "/cases/4/setup/0"),
        ("a name not text", setup.appending("0").appending("name"), 5, "expected a string, found 5", "/cases/4/setup/0/name"),
        ("a request not an object", setup.appending("0").appending("request"), [], "expected a request object", "/cases/4/setup/0/request"),
        ("a method not text", setup.appending("0").appending("request").appending("method"), .bool(true), "expected a string, found true",
            "/cases/4/setup/0/request/method"),
        ("headers not a list", setup.appending("0").appending("request").appending("headers"), [:], "expected an array",
            "/cases/4/setup/0/request/headers"),
        ("a header not an object", setup.appending("0").appending("request").appending("headers").appending("0"), "Accept", "expected a header object",
            "/cases/4/setup/0/request/headers/0"),
        ("too many headers", setup.appending("0").appending("request").appending("headers"),
            .array(Array(repeating: ["name": "X-A", "value": "b"], count: ReportLimits.maxHeaders + 1)), "expected at most 102,400 headers",
            "/cases/4/setup/0/request/headers"),
        ("a huge URL", setup.appending("0").appending("request").appending("url"), string(ReportLimits.maxText + 1), "expected a text of at most 1 MiB",
            "/cases/4/setup/0/request/url"),
        ("a huge name", setup.appending("0").appending("name"), string(ReportLimits.maxText + 1), "expected a text of at most 1 MiB", "/cases/4/setup/0/name"),
        ("a huge header value", setup.appending("0").appending("request").appending("headers").appending("0").appending("value"), string(ReportLimits.maxText + 1),
            "expected a text of at most 1 MiB", "/cases/4/setup/0/request/headers/0/value"),
        ("a body not text", setup.appending("0").appending("request").appending("body"), [:], "expected a string", "/cases/4/setup/0/request/body"),
    ] as [(String, JSONPointer, JSONValue, String, String)])
    func aMalformedStepIsRefusedWhereItIs(what: String, pointer: JSONPointer, value: JSONValue, message: String, place: String) {
        let problems = Self.problems(replacing: pointer, with: value)
        #expect(problems.contains { $0.hasPrefix("r.json:") && $0.contains("error: \(message)") && $0.hasSuffix("[\(place)]") }, "\(what): \(problems.map { $0.prefix(300) })")
    }

    /// A body is bounded by the file alone, as the case's own request body is: the contract wrote it.
    @Test func aLongBodyIsRead() throws {
        let long = String(repeating: "b", count: ReportLimits.maxText + 1)
        let edited = JSONMutations.replacing(Self.setup.appending("0").appending("request").appending("body"), in: Self.document, with: .string(long))
        let read = try ShardReport.read(CanonicalJSONWriter(style: .pretty).bytes(edited), file: "r.json").get()
        #expect(read.results[4].chain.first?.request.body == long)
    }

    /// A method from an edited report is text like any other: each curl line quotes it, so a
    /// line pasted from a merged report runs curl and nothing else.
    @Test func aMethodFromAnEditedReportIsQuotedInTheCurlLine() throws {
        let hostile = "GET; touch /tmp/pwned #"
        var edited = JSONMutations.replacing(Self.setup.appending("0").appending("request").appending("method"), in: Self.document, with: .string(hostile))
        edited = JSONMutations.replacing(JSONPointer(tokens: ["cases", "4", "request", "method"]), in: edited, with: "$(reboot)")
        let read = try ShardReport.read(CanonicalJSONWriter(style: .pretty).bytes(edited), file: "r.json").get()
        let again = VerifyReport(summary: try ShardMerge.merge([read]).get().summary, results: read.results)
        for (format, text) in try ReproductionChainTests.everyFormat(again) {
            #expect(!text.contains("-X GET; touch"), "\(format)")
            #expect(!text.contains("-X $(reboot)"), "\(format)")
        }
        #expect(CurlCommand.line(for: read.results[4].chain[0].request).hasPrefix("curl -i -X 'GET; touch /tmp/pwned #' "))
        #expect(CurlCommand.line(for: read.results[4].request).hasPrefix("curl -i -X '$(reboot)' "))
    }
}
