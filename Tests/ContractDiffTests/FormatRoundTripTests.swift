import ContractModel
import Testing

@testable import ContractDiff

/// The ignore file diff reads, fed what its writer writes: every optional field, awkward text.
struct FormatRoundTripTests {
    static let awkward = "quote \" backslash \\ slash / tab \t newline \n return \r nul \u{0} escape \u{1B}[31m del \u{7F} é 漢字 😀 e\u{301} \u{2028} \u{FEFF}"
    static let long = String(repeating: "0123456789 abcdef \u{1F} ü ", count: 2_000)

    @Test func anIgnoreFileReadsBackAsItWasWritten() throws {
        let entries = [
            DiffIgnore.Entry(
                fingerprint: "0123456789abcdef", reason: Self.awkward, rule: Self.awkward, change: "odd.\(Self.awkward)/\(Self.awkward)", expires: "2028-02-29"),
            DiffIgnore.Entry(fingerprint: "fedcba9876543210", reason: Self.long),
            DiffIgnore.Entry(fingerprint: "00000000deadbeef", reason: "x", rule: "", change: "", expires: nil),
            DiffIgnore.Entry(fingerprint: "1111111111111111", reason: ".", change: nil, expires: "2000-01-01"),
        ]
        let ignore = DiffIgnore(entries: entries)
        let read = try DiffIgnore.parse(Array(ignore.text.utf8), file: "ignore.json").get()
        #expect(read == ignore)
        #expect(read.text == ignore.text)
        #expect(Set(read.entries) == Set(entries))
        #expect(ignore.text.split(separator: "\n").count == 4 + entries.count + 2, "one entry a line, whatever the text holds")
        // Each entry's line, pasted into an empty file, is read as the entry.
        for entry in entries {
            let text = #"{"format": "contract-diff-ignore", "version": 1, "changes": ["# + entry.line + "]}"
            #expect(try DiffIgnore.parse(Array(text.utf8), file: "ignore.json").get().entries == [entry])
        }
    }

    /// Entries written for a diff's changes, accepted, then read back: the same entries.
    @Test func acceptedChangesReadBackAsWritten() throws {
        let change = Change(
            rule: "response-property-removed", severity: .breaking, contractID: "odd.\(Self.awkward)", caseName: Self.awkward, subject: "response body /x",
            message: "gone", old: nil, new: nil)
        let accepted = try DiffIgnore(entries: []).accepting([change], reason: Self.awkward, expires: "2030-12-31")
        let read = try DiffIgnore.parse(Array(accepted.text.utf8), file: "ignore.json").get()
        #expect(read == accepted)
        #expect(read.apply(to: [change], today: "2030-12-31").ignored.map(\.reason) == [Self.awkward])
    }
}
