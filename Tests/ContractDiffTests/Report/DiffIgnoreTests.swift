import ContractModel
import Testing

@testable import ContractDiff

/// The ignore file of `contract diff`: what it reads, what it refuses (placed), and what it
/// makes of a diff's changes.
struct DiffIgnoreTests {
    static let removed = Change(
        rule: "response-property-removed", severity: .breaking, contractID: "products.get", caseName: "found", subject: "response body /legacyCode",
        message: "'legacyCode' is gone", old: nil, new: nil)
    static let typeChanged = Change(
        rule: "response-type-changed", severity: .breaking, contractID: "products.get", caseName: "found", subject: "response body /price",
        message: "'price' is a string now", old: nil, new: nil)
    static let contractRemoved = Change(
        rule: "contract-removed", severity: .breaking, contractID: "products.delete", caseName: nil, subject: "contract", message: "gone",
        old: nil, new: nil)

    func failure(_ text: String, file: String = "ignore.json") -> [String] {
        guard case .failure(let error) = DiffIgnore.parse(Array(text.utf8), file: file) else {
            Issue.record("a broken ignore file was accepted")
            return []
        }
        return error.diagnostics.map(\.rendered)
    }

    @Test func theFileIsOneSortedEntryPerLineAndReadsBack() throws {
        let ignore = DiffIgnore(entries: [
            .init(fingerprint: "bbbbbbbbbbbbbbbb", reason: "API-42", rule: "contract-removed", change: "products.delete", expires: "2027-01-31"),
            .init(fingerprint: "aaaaaaaaaaaaaaaa", reason: "clients moved to \"sku\"", change: "products.get/found"),
            .init(fingerprint: "cccccccccccccccc", reason: "written by hand"),
        ])
        #expect(ignore.text == #"""
            {
              "format": "contract-diff-ignore",
              "version": 1,
              "changes": [
                {"fingerprint":"cccccccccccccccc","reason":"written by hand"},
                {"change":"products.delete","expires":"2027-01-31","fingerprint":"bbbbbbbbbbbbbbbb","reason":"API-42","rule":"contract-removed"},
                {"change":"products.get/found","fingerprint":"aaaaaaaaaaaaaaaa","reason":"clients moved to \"sku\""}
              ]
            }

            """#)
        #expect(try DiffIgnore.parse(Array(ignore.text.utf8), file: "ignore.json").get() == ignore)
        #expect(try DiffIgnore.parse(Array(DiffIgnore(entries: []).text.utf8), file: "ignore.json").get().entries.isEmpty)
    }

    @Test func everyProblemIsPlacedInTheFile() {
        let text = """
            {"format": "contract-diff-ignore", "version": 1, "note": "x", "changes": [
              {"fingerprint": "aaaaaaaaaaaaaaaa", "reason": "API-42", "expires": "2027-02-29"},
              {"fingerprint": "aaaaaaaaaaaaaaaa", "reason": "again", "case": "a/x"},
              {"fingerprint": "AAAAAAAAAAAAAAAA", "reason": 42},
              {"reason": "no fingerprint"},
              "not an entry"
            ]}
            """
        #expect(failure(text) == [
            "ignore.json:1:58: error: unknown key 'note'; an ignore file has format, version, changes [/note]",
            "ignore.json:2:70: error: expected 'expires' as a date YYYY-MM-DD, found '2027-02-29' [/changes/0/expires]",
            "ignore.json:3:19: error: fingerprint aaaaaaaaaaaaaaaa is listed twice [/changes/1/fingerprint]",
            "ignore.json:3:66: error: unknown key 'case'; an entry has fingerprint, reason, rule, change, expires [/changes/1/case]",
            "ignore.json:4:19: error: expected a fingerprint of 16 lowercase hex digits, found 'AAAAAAAAAAAAAAAA' [/changes/2/fingerprint]",
            "ignore.json:4:49: error: expected 'reason' to be a string [/changes/2/reason]",
            "ignore.json:5:3: error: expected 'fingerprint' [/changes/3]",
            "ignore.json:6:3: error: expected an entry object [/changes/4]",
        ])
    }

    @Test func aChangeIsAcceptedOnlyWithAReason() {
        #expect(failure(#"{"format": "contract-diff-ignore", "version": 1, "changes": [{"fingerprint": "aaaaaaaaaaaaaaaa"}]}"#) == [
            "ignore.json:1:62: error: expected 'reason': accepting a change needs a why (a ticket, who agreed, which clients moved on) [/changes/0]"
        ])
        #expect(failure(#"{"format": "contract-diff-ignore", "version": 1, "changes": [{"fingerprint": "aaaaaaaaaaaaaaaa", "reason": " \n "}]}"#) == [
            "ignore.json:1:108: error: 'reason' is empty: accepting a change needs a why [/changes/0/reason]"
        ])
        #expect(throws: DiagnosticsError.self) { try DiffIgnore.entries(for: [Self.removed], reason: "  ") }
        #expect(throws: DiagnosticsError.self) { try DiffIgnore.entries(for: [Self.removed], reason: "API-42", expires: "next week") }
    }

    @Test func aFileThatIsNotAnIgnoreFileIsRefusedWhole() {
        #expect(failure("{\"format\": \"contract-diff-ignore\",\n \"version\": 1, \"changes\": [}") == [
            "ignore.json:2:28: error: not JSON: expected a value, found '}'"
        ])
        #expect(failure(#"["changes"]"#) == ["ignore.json:1:1: error: expected an object with 'format', 'version' and 'changes'"])
        #expect(failure(#"{"format": "contract-verify-baseline", "version": 2, "changes": {}}"#) == [
            "ignore.json:1:12: error: expected 'format': 'contract-diff-ignore' [/format]",
            "ignore.json:1:51: error: expected 'version': 1 (this contract reads version 1) [/version]",
            "ignore.json:1:65: error: expected 'changes': an array of entries [/changes]",
        ])
        #expect(failure(#"{"format": "contract-diff-ignore", "version": 1, "changes": [], "changes": []}"#) == [
            "ignore.json:1:65: error: key 'changes' is repeated [/changes]"
        ])
    }

    @Test func anEntryHoldsThroughItsLastDay() {
        let entry = DiffIgnore.Entry(fingerprint: Self.removed.fingerprint, reason: "API-42", expires: "2026-12-31")
        #expect(!entry.isExpired(today: "2026-12-31") && entry.isExpired(today: "2027-01-01"))
        #expect(!DiffIgnore.Entry(fingerprint: "aaaaaaaaaaaaaaaa", reason: "forever").isExpired(today: "2999-01-01"))

        let ignore = DiffIgnore(entries: [entry])
        #expect(ignore.apply(to: [Self.removed], today: "2026-12-31").ignored.count == 1)
        let expired = ignore.apply(to: [Self.removed], today: "2027-01-01")
        #expect(expired.kept == [Self.removed] && expired.ignored.isEmpty && expired.unused.isEmpty)
        #expect(ignore.expiredEntries(today: "2027-01-01") == [entry] && ignore.expiredEntries(today: "2026-12-31").isEmpty)
    }

    @Test func datesAreDaysTheCalendarHas() {
        #expect(CalendarDay.isValid("2028-02-29") && CalendarDay.isValid("2000-02-29") && CalendarDay.isValid("2027-12-31"))
        for text in ["2027-02-29", "1900-02-29", "2027-04-31", "2027-13-01", "2027-00-10", "27-01-01", "2027-1-01", "2027-01-01T00:00", "２０２７-01-01"] {
            #expect(!CalendarDay.isValid(text), "\(text)")
        }
    }

    @Test func applyingSetsAcceptedChangesApartWithTheirReason() {
        let ignore = DiffIgnore(entries: [
            .init(fingerprint: Self.removed.fingerprint, reason: "API-42", change: "products.get/found"),
            .init(fingerprint: "00000000deadbeef", reason: "a change since reverted", change: "orders.get"),
        ])
        let outcome = ignore.apply(to: [Self.removed, Self.typeChanged, Self.contractRemoved], today: "2026-06-01")
        #expect(outcome.kept == [Self.typeChanged, Self.contractRemoved])
        #expect(outcome.ignored.map(\.change) == [Self.removed] && outcome.ignored.map(\.reason) == ["API-42"])
        #expect(outcome.unused == ["00000000deadbeef"])
    }

    @Test func aReviewerAcceptsChangesWithEntriesWrittenForThem() throws {
        let entries = try DiffIgnore.entries(for: [Self.typeChanged, Self.contractRemoved, Self.typeChanged], reason: "API-7", expires: "2027-01-31")
        #expect(entries.map(\.change) == ["products.delete", "products.get/found"], "one entry per fingerprint, sorted")
        #expect(entries[1].line == #"{"change":"products.get/found","expires":"2027-01-31","fingerprint":"\#(Self.typeChanged.fingerprint)","reason":"API-7","rule":"response-type-changed"}"#)
        let written = DiffIgnore(entries: entries)
        #expect(try DiffIgnore.parse(Array(written.text.utf8), file: "ignore.json").get() == written)
        #expect(written.apply(to: [Self.typeChanged, Self.removed], today: "2027-01-31").kept == [Self.removed])

        // Accepting again renews an entry (an expired one, say) and leaves the others as written.
        let old = DiffIgnore(entries: [
            .init(fingerprint: Self.typeChanged.fingerprint, reason: "old", expires: "2020-01-01"),
            .init(fingerprint: "00000000deadbeef", reason: "someone else's"),
        ])
        let renewed = try old.accepting([Self.typeChanged], reason: "API-8")
        #expect(renewed.entries.map(\.reason) == ["someone else's", "API-8"])
        #expect(renewed.entries[1].expires == nil)
    }
}
