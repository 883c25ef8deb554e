import ContractJSON
import ContractRequests
import Testing

/// `UsageLog.line` writes a record's members itself, for speed; the line must be what the
/// canonical writer makes of the same object, byte for byte, whatever the texts hold.
struct UsageLineTests {
    static func clipped(_ text: String, _ limit: Int = UsageLog.maxText) -> String {
        MessageText.clipped(text, to: limit)
    }

    /// The record as a `JSONObject`, members in no particular order, through the canonical writer.
    static func canonical(_ record: UsageRecord) -> [UInt8] {
        var members: [JSONObject.Member] = [
            .init(key: "path", value: .string(clipped(record.path))), .init(key: "outcome", value: .string(record.outcome.rawValue)),
            .init(key: "method", value: .string(clipped(record.method, 32))),
        ]
        if let test = record.test { members.append(.init(key: "test", value: .string(clipped(test)))) }
        if let contract = record.contract { members.append(.init(key: "contract", value: .string(clipped(contract)))) }
        if let caseName = record.caseName { members.append(.init(key: "case", value: .string(clipped(caseName)))) }
        if record.relaxed { members.append(.init(key: "relaxed", value: true)) }
        if let reason = record.reason { members.append(.init(key: "reason", value: .string(clipped(reason)))) }
        if let nearest = record.nearest { members.append(.init(key: "nearest", value: .string(clipped(nearest)))) }
        if !record.violations.isEmpty {
            members.append(.init(key: "violations", value: .array(record.violations.prefix(UsageLog.maxViolations).map {
                .object(JSONObject([
                    .init(key: "message", value: .string(clipped($0.message, 500))), .init(key: "place", value: .string(clipped($0.place, 500))),
                    .init(key: "keyword", value: .string(clipped($0.keyword, 100))),
                ]))
            })))
        }
        return CanonicalJSONWriter(style: .compact).bytes(.object(JSONObject(members))) + [UInt8(ascii: "\n")]
    }

    static let texts = ["", "plain", "quote \" back \\ slash", "tab\tnew\nline\u{1}\u{1f}", "é 한글 🧪 \u{E000}\u{FFFF}", String(repeating: "long ", count: 600)]

    @Test func theLineIsTheCanonicalWritersBytes() throws {
        var records: [UsageRecord] = []
        for (index, text) in Self.texts.enumerated() {
            records.append(UsageRecord(contract: "products.get", caseName: text, outcome: .answered, test: text, method: "GET", path: "/p/" + text))
            records.append(UsageRecord(contract: nil, caseName: nil, outcome: .unmatched, relaxed: index % 2 == 0, test: nil, method: text, path: text, nearest: text, reason: text))
            records.append(UsageRecord(
                contract: text, caseName: "c", outcome: .invalid, relaxed: true, test: "t", method: "POST", path: "/",
                violations: (0..<(index * 5)).map { UsageRecord.Violation(place: text + "\($0)", keyword: text, message: text) }))
        }
        for record in records {
            let line = UsageLog.line(record)
            #expect(line == Self.canonical(record), "\(String(decoding: line, as: UTF8.self))")
            #expect(line.count <= UsageLog.maxLineBytes)
        }
        let file = UsageLog.headerLine(recorder: "r", process: 1) + records.flatMap(UsageLog.line)
        #expect(try UsageLog.read(file).get().records.count == records.count)
    }

    /// Texts clipped by characters can still take a line past the reader's bound when each
    /// character takes four bytes, or its escape six: the writer keeps every line readable.
    @Test func aLineOfWideTextsStaysWithinTheReadersBound() throws {
        let wide = String(repeating: "🧪", count: 600)
        let escaped = String(repeating: "\u{1}", count: 3_000)
        let records = [
            UsageRecord(
                contract: "c", caseName: "k", outcome: .invalid, test: wide, method: "POST", path: "/",
                violations: (0..<20).map { UsageRecord.Violation(place: wide + "\($0)", keyword: "type", message: wide) }),
            UsageRecord(
                contract: escaped, caseName: escaped, outcome: .unmatched, test: escaped, method: escaped, path: escaped, nearest: escaped, reason: escaped),
        ]
        for record in records { #expect(UsageLog.line(record).count <= UsageLog.maxLineBytes) }
        let read = try UsageLog.read(UsageLog.headerLine(recorder: "r", process: 1) + records.flatMap(UsageLog.line)).get().records
        #expect(read.count == 2)
        #expect((1..<20).contains(read[0].violations.count), "the last violations left out, the first kept")
        #expect(read[0].test == MessageText.clipped(wide, to: UsageLog.maxText))
    }
}
