import ContractJSON

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one writer and the one reader of a usage file: JSON Lines, a header line naming the format,
/// then one ``UsageRecord`` per line, appended as each request is answered, so a test process that
/// crashes keeps every line it wrote.
///
/// ```
/// {"format":"contract-usage","process":4242,"recorder":"ContractTesting","version":1}
/// {"case":"found","contract":"products.get","method":"GET","outcome":"answered","path":"/api/products/1","test":"MarketClientTests/testFetch"}
/// {"method":"GET","nearest":"products.get/found","outcome":"unmatched","path":"/api/product/1","reason":"…","test":"…"}
/// ```
public enum UsageLog {
    public static let format = "contract-usage"
    public static let version = 1
    /// A line is at most this long (a record's texts are clipped well under it when written).
    public static let maxLineBytes = 64 * 1024
    /// The violations a record keeps; a request breaking its contract more ways is rare, and the
    /// test's own failure lists them all.
    public static let maxViolations = 20
    /// Texts are clipped to this many characters when written: paths, test names, reasons.
    public static let maxText = 2_000

    // MARK: - Writing

    /// The first line of a file: which recorder wrote it, in which process.
    public static func headerLine(recorder: String, process: Int) -> [UInt8] {
        line(.object(JSONObject([
            .init(key: "format", value: .string(format)), .init(key: "version", value: .number(JSONNumber(version))),
            .init(key: "recorder", value: .string(clipped(recorder))), .init(key: "process", value: .number(JSONNumber(process))),
        ])))
    }

    /// One record's line, newline included: byte for byte what the canonical writer writes of
    /// the record's object (compact, keys in order), written member by member.
    ///
    /// A line stays within ``maxLineBytes``, which the reader holds every line to: texts of
    /// characters that take four bytes, or escapes that take six, can take a record's clipped
    /// texts past it (twenty violations quoting long values); the last violations are then left
    /// out until it fits, and if no violation is left and it still does not, every text is cut
    /// shorter.
    public static func line(_ record: UsageRecord) -> [UInt8] {
        var violations = min(record.violations.count, maxViolations)
        while true {
            let written = line(record, violations: violations, textLimit: maxText)
            if written.count <= maxLineBytes { return written }
            if violations == 0 { return line(record, violations: 0, textLimit: maxText / 10) }
            violations /= 2
        }
    }

    /// The line as the canonical writer writes it: its members in key order (RFC 8785; ASCII keys
    /// sort bytewise), `method`, always there, the first written without a comma before it.
    ///
    /// Written with as few calls as it takes: a line is written per request a test sends, in a
    /// test suite's debug build, where each call of this module's costs hundreds of
    /// instructions and the standard library's appends (optimized) and `strcspn` few; a
    /// `JSONObject` built, sorted and walked for each line cost a tenth of a stub's answer.
    private static func line(_ record: UsageRecord, violations kept: Int, textLimit: Int) -> [UInt8] {
        func inner(_ value: String, to limit: Int = textLimit) -> String {
            escapedInner(clipped(value, to: min(limit, textLimit)))
        }
        var line = "{"
        if let caseName = record.caseName {
            line += "\"case\":\""
            line += inner(caseName)
            line += "\","
        }
        if let contract = record.contract {
            line += "\"contract\":\""
            line += inner(contract)
            line += "\","
        }
        line += "\"method\":\""
        line += inner(record.method, to: 32)
        if let nearest = record.nearest {
            line += "\",\"nearest\":\""
            line += inner(nearest)
        }
        line += "\",\"outcome\":\""
        line += record.outcome.rawValue
        line += "\",\"path\":\""
        line += inner(record.path)
        if let reason = record.reason {
            line += "\",\"reason\":\""
            line += inner(reason)
        }
        line += record.relaxed ? "\",\"relaxed\":true" : "\""
        if let test = record.test {
            line += ",\"test\":\""
            line += inner(test)
            line += "\""
        }
        if kept > 0 {
            line += ",\"violations\":["
            for (index, violation) in record.violations.prefix(kept).enumerated() {
                line += index > 0 ? ",{\"keyword\":\"" : "{\"keyword\":\""
                line += inner(violation.keyword, to: 100)
                line += "\",\"message\":\""
                line += inner(violation.message, to: 500)
                line += "\",\"place\":\""
                line += inner(violation.place, to: 500)
                line += "\"}"
            }
            line += "]"
        }
        line += "}\n"
        return Array(line.utf8)
    }

    /// `text` escaped as the canonical writer escapes it, without the quotes around it. Nearly
    /// every text has nothing to escape, which the C library's `strcspn` finds at once (it stops
    /// at a NUL as well, which is escaped too).
    private static func escapedInner(_ text: String) -> String {
        guard text.withCString({ strcspn($0, escaped) }) != text.utf8.count else { return text }
        var quoted = ""
        CanonicalJSONWriter.writeString(text, into: &quoted)
        return String(decoding: quoted.utf8.dropFirst().dropLast(), as: UTF8.self)
    }

    /// The bytes JSON escapes in a string: control characters, quote and backslash; a C string.
    private static let escaped: [CChar] = (1..<0x20).map { CChar($0) } + [CChar(UInt8(ascii: "\"")), CChar(UInt8(ascii: "\\")), 0]

    private static func line(_ value: JSONValue) -> [UInt8] {
        var bytes = CanonicalJSONWriter(style: .compact).bytes(value)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private static func clipped(_ text: String, to limit: Int = maxText) -> String {
        // No longer in bytes than the limit in characters: nothing to cut, and no walk to find out.
        text.utf8.count <= limit ? text : MessageText.clipped(text, to: limit)
    }

    // MARK: - Reading

    /// What a file holds: its records, in order, and what was wrong with it.
    public struct Contents: Sendable {
        public var recorder: String
        public var records: [UsageRecord]
        /// A last line without its newline: the process was stopped while writing it. Left out,
        /// and said as a warning, since every line before it is whole.
        public var truncatedLastLine: Int?
    }

    /// A problem at a place in a file: the line (1-based), the column, and the JSON Pointer in
    /// the line's object.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var pointer: JSONPointer
        public var message: String

        public var description: String {
            "\(line):\(column): \(pointer.isRoot ? "" : "at \(pointer.description): ")\(message)"
        }
    }

    /// Reads a whole file's bytes; the first problem ends the reading (a file another tool or a
    /// person wrote over is not half trusted).
    public static func read(_ bytes: [UInt8]) -> Result<Contents, Problem> {
        var records: [UsageRecord] = []
        return read(bytes) { records.append($0) }.map { read in
            Contents(recorder: read.recorder, records: records, truncatedLastLine: read.truncatedLastLine)
        }
    }

    /// What ``read(_:each:)`` found besides the records: the recorder, how many records it gave,
    /// and a last line cut short.
    public struct Summary: Sendable {
        public var recorder: String
        public var records: Int
        public var truncatedLastLine: Int?
    }

    /// Reads a whole file's bytes, giving each record to `each` as its line is read, so nothing
    /// grows with the file's lines (a file of a gibibyte of short lines holds a billion). The
    /// first problem ends the reading: the records given before it are of a file not to be used.
    public static func read(_ bytes: [UInt8], each: (UsageRecord) -> Void) -> Result<Summary, Problem> {
        var recorder: String?
        var records = 0
        var start = 0
        var number = 0
        while start < bytes.count {
            number += 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let stop = end ?? bytes.count
            if stop - start > maxLineBytes {
                return .failure(Problem(line: number, column: 1, pointer: .root, message: "expected a line of at most \(maxLineBytes) bytes, found \(stop - start)"))
            }
            // A last line without its newline: the process was stopped while writing it.
            guard end != nil else {
                guard let recorder else { return .failure(missingHeader(found: "an incomplete line")) }
                return .success(Summary(recorder: recorder, records: records, truncatedLastLine: number))
            }
            let line = bytes[start..<stop]
            start = stop + 1
            guard recorder != nil else {
                switch header(line, line: number) {
                case .success(let name): recorder = name
                case .failure(let problem): return .failure(problem)
                }
                continue
            }
            guard !line.isEmpty else { continue }
            switch record(line, line: number) {
            case .success(let record):
                each(record)
                records += 1
            case .failure(let problem): return .failure(problem)
            }
        }
        guard let recorder else { return .failure(missingHeader(found: "an empty file")) }
        return .success(Summary(recorder: recorder, records: records, truncatedLastLine: nil))
    }

    private static func missingHeader(found: String) -> Problem {
        Problem(line: 1, column: 1, pointer: .root, message: "expected a usage file's first line {\"format\": \"\(format)\", …}, found \(found)")
    }

    private static func object(_ bytes: ArraySlice<UInt8>, line: Int) -> Result<(JSONObject, JSONDocument), Problem> {
        let document: JSONDocument
        do {
            document = try JSONParser(maxDepth: 8).parse(Array(bytes))
        } catch {
            return .failure(Problem(line: line, column: error.location.column, pointer: .root, message: error.message))
        }
        guard case .object(let object) = document.value else {
            return .failure(Problem(line: line, column: 1, pointer: .root, message: "expected an object, found \(document.value.typeName)"))
        }
        if let duplicate = document.duplicateKeys.first {
            return .failure(Problem(line: line, column: duplicate.location.column, pointer: duplicate.pointer, message: "'\(MessageText.oneLine(duplicate.key))' is given twice"))
        }
        return .success((object, document))
    }

    private static func header(_ bytes: ArraySlice<UInt8>, line: Int) -> Result<String, Problem> {
        let parsed: (JSONObject, JSONDocument)
        switch object(bytes, line: line) {
        case .success(let value): parsed = value
        case .failure(let problem): return .failure(problem)
        }
        var fields = Fields(object: parsed.0, document: parsed.1, line: line)
        guard parsed.0["format"]?.stringValue == format else {
            return .failure(fields.problem(at: "format", "expected a usage file's first line {\"format\": \"\(format)\", …}"))
        }
        guard let found = parsed.0["version"]?.numberValue, found == JSONNumber(version) else {
            return .failure(fields.problem(
                at: "version", "expected version \(version), found \(parsed.0["version"].map { MessageText.clipped(CanonicalJSONWriter(style: .compact).string($0), to: 40) } ?? "none"): a ContractTesting newer than this contract wrote it; update contract"))
        }
        return fields.text("recorder", required: true).map { $0 ?? "" }
    }

    private static func record(_ bytes: ArraySlice<UInt8>, line: Int) -> Result<UsageRecord, Problem> {
        let parsed: (JSONObject, JSONDocument)
        switch object(bytes, line: line) {
        case .success(let value): parsed = value
        case .failure(let problem): return .failure(problem)
        }
        var fields = Fields(object: parsed.0, document: parsed.1, line: line)
        do {
            guard let outcomeText = try fields.text("outcome", required: true).get(), let outcome = UsageRecord.Outcome(rawValue: outcomeText) else {
                return .failure(fields.problem(at: "outcome", "expected one of \(UsageRecord.Outcome.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            var record = UsageRecord(
                contract: try fields.text("contract").get(), caseName: try fields.text("case").get(), outcome: outcome,
                test: try fields.text("test").get(), method: try fields.text("method", required: true).get() ?? "",
                path: try fields.text("path", required: true).get() ?? "", nearest: try fields.text("nearest").get(),
                reason: try fields.text("reason").get())
            if let relaxed = parsed.0["relaxed"] {
                guard let flag = relaxed.boolValue else { return .failure(fields.problem(at: "relaxed", "expected true or false, found \(relaxed.typeName)")) }
                record.relaxed = flag
            }
            if outcome != .unmatched, record.caseID == nil {
                return .failure(fields.problem(at: "contract", "expected 'contract' and 'case': a request recorded as \(outcome.rawValue) was answered by a case"))
            }
            if let list = parsed.0["violations"] {
                guard let items = list.arrayValue, items.count <= maxViolations else {
                    return .failure(fields.problem(at: "violations", "expected an array of at most \(maxViolations) violations"))
                }
                for (index, item) in items.enumerated() {
                    let pointer = JSONPointer(tokens: ["violations", String(index)])
                    guard let object = item.objectValue else { return .failure(fields.problem(at: pointer, "expected an object, found \(item.typeName)")) }
                    var inner = Fields(object: object, document: parsed.1, line: line, base: pointer)
                    record.violations.append(UsageRecord.Violation(
                        place: try inner.text("place", required: true).get() ?? "", keyword: try inner.text("keyword", required: true).get() ?? "",
                        message: try inner.text("message", required: true).get() ?? ""))
                }
            }
            return .success(record)
        } catch {
            return .failure(error)
        }
    }

    /// Typed members of one line's object, each problem placed at its column and pointer.
    private struct Fields {
        let object: JSONObject
        let document: JSONDocument
        let line: Int
        var base: JSONPointer = .root

        mutating func text(_ key: String, required: Bool = false) -> Result<String?, Problem> {
            guard let value = object[key] else {
                return required ? .failure(problem(at: key, "expected '\(key)', found nothing")) : .success(nil)
            }
            guard let text = value.stringValue else { return .failure(problem(at: key, "expected a string, found \(value.typeName)")) }
            // Written clipped to maxText characters (and an ellipsis): anything longer is not ours.
            guard text.utf8.count <= maxText * 4 + 3 else { return .failure(problem(at: key, "expected at most \(maxText) characters")) }
            return .success(text)
        }

        func problem(at key: String, _ message: String) -> Problem {
            problem(at: base.appending(key), message)
        }

        func problem(at pointer: JSONPointer, _ message: String) -> Problem {
            let column = document.location(of: pointer)?.column ?? 1
            return Problem(line: line, column: column, pointer: pointer, message: message)
        }
    }
}
