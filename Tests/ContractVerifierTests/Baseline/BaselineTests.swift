import ContractModel
import Testing

@testable import ContractVerifier

/// The baseline file and what it makes of a run's findings.
struct BaselineTests {
    static let entries = [
        Baseline.Entry(fingerprint: "bbbbbbbbbbbbbbbb", caseName: "b/x", rule: "status", reason: "known", expires: "2026-12-31"),
        Baseline.Entry(fingerprint: "aaaaaaaaaaaaaaaa", caseName: "a/x", rule: "body.schema", place: "/items/* type"),
    ]

    @Test func theFileIsOneSortedEntryPerLineAndReadsBack() throws {
        let baseline = Baseline(entries: Self.entries)
        #expect(baseline.text == """
            {
              "format": "contract-verify-baseline",
              "version": 1,
              "findings": [
                {"case":"a/x","fingerprint":"aaaaaaaaaaaaaaaa","rule":"body.schema","where":"/items/* type"},
                {"case":"b/x","expires":"2026-12-31","fingerprint":"bbbbbbbbbbbbbbbb","reason":"known","rule":"status"}
              ]
            }

            """)
        #expect(try Baseline.parse(Array(baseline.text.utf8), file: "b.json").get() == baseline)
        #expect(try Baseline.parse(Array(Baseline(entries: []).text.utf8), file: "b.json").get().entries.isEmpty)
    }

    @Test func everyProblemIsPlacedInTheFile() {
        let text = """
            {"format": "contract-verify-baseline", "version": 1, "findings": [
              {"fingerprint": "aaaaaaaaaaaaaaaa", "case": "a/x", "expires": "next week"},
              {"fingerprint": "aaaaaaaaaaaaaaaa", "case": "a/y", "note": "x"},
              {"case": "a/z"}
            ]}
            """
        guard case .failure(let error) = Baseline.parse(Array(text.utf8), file: "b.json") else {
            Issue.record("a broken baseline was accepted")
            return
        }
        #expect(error.diagnostics.map(\.rendered) == [
            "b.json:2:65: error: expected 'expires' as a date YYYY-MM-DD, found 'next week' [/findings/0/expires]",
            "b.json:3:19: error: fingerprint aaaaaaaaaaaaaaaa is listed twice [/findings/1/fingerprint]",
            "b.json:3:62: error: unknown key 'note'; an entry has fingerprint, case, rule, where, reason, expires [/findings/1/note]",
            "b.json:4:3: error: expected 'fingerprint' [/findings/2]",
        ])
    }

    /// The baseline is read as strictly as an ignore file (one reader, ``FingerprintList``): an
    /// unknown key beside the entries, or a key given twice, refuses the file.
    @Test func unknownAndRepeatedKeysAreRefused() {
        let text = """
            {"format": "contract-verify-baseline", "version": 1, "note": "x", "findings": [
              {"fingerprint": "aaaaaaaaaaaaaaaa", "case": "a/x", "reason": "r", "reason": "s"},
              {}
            ]}
            """
        guard case .failure(let error) = Baseline.parse(Array(text.utf8), file: "b.json") else {
            Issue.record("a broken baseline was accepted")
            return
        }
        #expect(error.diagnostics.map(\.rendered) == [
            "b.json:1:62: error: unknown key 'note'; a baseline has format, version, findings [/note]",
            "b.json:2:69: error: key 'reason' is repeated [/findings/0/reason]",
            "b.json:3:3: error: expected 'case' [/findings/1]",
            "b.json:3:3: error: expected 'fingerprint' [/findings/1]",
        ])
        let twice = #"{"format": "contract-verify-baseline", "version": 1, "findings": [], "findings": []}"#
        guard case .failure(let repeated) = Baseline.parse(Array(twice.utf8), file: "b.json") else {
            Issue.record("a baseline with 'findings' twice was accepted")
            return
        }
        #expect(repeated.diagnostics.map(\.rendered) == ["b.json:1:70: error: key 'findings' is repeated [/findings]"])
    }

    @Test func anEntryHoldsThroughItsLastDay() {
        let entry = Self.entries[0]
        #expect(!entry.isExpired(today: "2026-12-31") && entry.isExpired(today: "2027-01-01"))
        #expect(!Self.entries[1].isExpired(today: "2999-01-01"))
        #expect(CalendarDay.today().count == 10 && CalendarDay.isValid(CalendarDay.today()))
        #expect(!CalendarDay.isValid("2026-13-01") && !CalendarDay.isValid("26-12-01") && !CalendarDay.isValid("2027-02-30"))
    }

    @Test func anUpdateKeepsWhatPeopleWroteAndOtherShardsEntries() throws {
        let finding = Finding(kind: .status, rule: "status", message: "expected status 204, found 200")
        let kept = finding.fingerprint(contract: "b", case: "x")
        let previous = Baseline(entries: [
            Baseline.Entry(fingerprint: kept, caseName: "b/x", reason: "API-42", expires: "2027-01-31"),
            Baseline.Entry(fingerprint: "cccccccccccccccc", caseName: "b/x"),  // fixed: its case ran, nothing met it
            Baseline.Entry(fingerprint: "dddddddddddddddd", caseName: "z/other-shard"),  // its case did not run
        ])
        let request = DisplayedRequest(method: "GET", url: "http://h/x", headers: [], body: nil)
        let results = [
            CaseResult(contractID: "b", caseName: "x", file: "b.json", outcome: .failed, request: request, response: nil,
                findings: [finding], transportError: nil, attempts: 1, duration: .zero),
            CaseResult(contractID: "c", caseName: "y", file: "c.json", outcome: .failed, request: request, response: nil,
                findings: [Finding(kind: .body, rule: "body.schema", message: "m", pointer: "/items/4/price", keyword: "type")],
                transportError: nil, attempts: 1, duration: .zero),
        ]
        let report = JSONReport.render(VerifyReport(baseURL: "http://h", results: results, duration: .zero))
        let outcome = try BaselineUpdate.make(report: Array(report.utf8), reportFile: "r.json", previous: previous, reason: "new", expires: nil).get()
        #expect((outcome.added, outcome.kept, outcome.removed) == (1, 1, 1))
        #expect(outcome.baseline.entries.map(\.caseName) == ["b/x", "c/y", "z/other-shard"])
        #expect(outcome.baseline.entries[0].reason == "API-42" && outcome.baseline.entries[0].expires == "2027-01-31")
        #expect(outcome.baseline.entries[1].reason == "new" && outcome.baseline.entries[1].place == "/items/*/price type")
    }
}
