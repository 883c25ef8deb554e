import Foundation
import ContractJSON
import ContractRequests
import Testing

/// The usage file's one writer and one reader agree, and the reader names the line, column and
/// pointer of what it refuses.
struct UsageLogTests {
    static let records = [
        UsageRecord(contract: "products.get", caseName: "found", outcome: .answered, test: "MarketClientTests/testFetch", method: "GET", path: "/api/products/1"),
        UsageRecord(
            contract: "products.create", caseName: "created", outcome: .invalid, relaxed: true, test: nil, method: "POST", path: "/api/products",
            violations: [.init(place: "body /nme", keyword: "additionalProperties", message: "unexpected property 'nme'")]),
        UsageRecord(
            contract: "products.get", caseName: nil, outcome: .unmatched, test: "fetch()", method: "GET", path: "/api/product/1",
            nearest: "products.get/found", reason: "the path differs"),
    ]

    static func file(_ records: [UsageRecord]) -> [UInt8] {
        UsageLog.headerLine(recorder: "ContractTesting", process: 42) + records.flatMap(UsageLog.line)
    }

    @Test func whatTheWriterWritesTheReaderReadsBack() throws {
        let contents = try UsageLog.read(Self.file(Self.records)).get()
        #expect(contents.recorder == "ContractTesting")
        #expect(contents.records == Self.records)
        #expect(contents.truncatedLastLine == nil)
    }

    @Test func aLastLineCutShortIsLeftOutAndSaid() throws {
        var bytes = Self.file(Self.records)
        bytes.removeLast(10)
        let contents = try UsageLog.read(bytes).get()
        #expect(contents.records == Array(Self.records.prefix(2)))
        #expect(contents.truncatedLastLine == 4)
    }

    @Test(arguments: [
        ("{\"format\":\"other\",\"version\":1,\"recorder\":\"x\",\"process\":1}\n", "1:11: at /format: expected a usage file's first line"),
        ("{\"format\":\"contract-usage\",\"version\":2,\"recorder\":\"x\",\"process\":1}\n", "1:38: at /version: expected version 1, found 2"),
        ("HEADER{\"outcome\":\"answered\",\"method\":\"GET\",\"path\":\"/\"}\n", "2:1: at /contract: expected 'contract' and 'case'"),
        ("HEADER{\"outcome\":\"sent\",\"method\":\"GET\",\"path\":\"/\"}\n", "2:12: at /outcome: expected one of answered, invalid, unmatched"),
        ("HEADER{\"outcome\":\"unmatched\",\"method\":\"GET\",\"path\":7}\n", "2:46: at /path: expected a string, found integer"),
        ("HEADER{\"outcome\":\"unmatched\",\"method\":\"GET\"}\n", "2:1: at /path: expected 'path', found nothing"),
        ("HEADER{\"outcome\":\"unmatched\",\"method\":\"GET\",\"path\":\"/\",\"path\":\"/\"}\n", "2:50: at /path: 'path' is given twice"),
        ("HEADER[1]\n", "2:1: expected an object, found array"),
        ("HEADER{\"outcome\":\n", "2:12: "),
        ("", "1:1: expected a usage file's first line"),
    ])
    func whatTheReaderRefusesIsPlaced(text: String, expected: String) {
        let header = String(decoding: UsageLog.headerLine(recorder: "r", process: 1), as: UTF8.self)
        let bytes = Array(text.replacingOccurrences(of: "HEADER", with: header).utf8)
        switch UsageLog.read(bytes) {
        case .success: Issue.record("read: \(text)")
        case .failure(let problem): #expect(problem.description.hasPrefix(expected), "\(problem)")
        }
    }

    @Test func aLineOverTheBoundIsRefusedBeforeItIsParsed() {
        let long = Array("{\"path\":\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: UsageLog.maxLineBytes) + Array("\"}\n".utf8)
        switch UsageLog.read(UsageLog.headerLine(recorder: "r", process: 1) + long) {
        case .success: Issue.record("a line of \(long.count) bytes was read")
        case .failure(let problem): #expect(problem.description.contains("2:1: expected a line of at most 65536 bytes"))
        }
    }
}
