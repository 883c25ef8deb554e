/// `--report html=PATH`: one self-contained page a person opens in a browser, written for someone
/// who has never seen the tool: the verdict and the counts first, then each case that did not
/// pass with what was expected and what came back, then a table of every case.
///
/// Built for runs of 10,000 cases and more: the page is static HTML, with no script at all (its
/// own Content-Security-Policy allows only its stylesheet), and the status filters are radio
/// buttons whose `:checked ~` rules hide rows by class, so changing a filter costs the browser one
/// style recalculation rather than a script walking the rows. The table is cut into blocks of
/// ``rowsPerBlock`` rows that the browser lays out only when they come into view
/// (`content-visibility: auto`): headless Chromium then shows a 10,000-case page about as fast as
/// a page of ten, where one long table took more than twice as long (`scripts/html-screenshot`).
///
/// Streamed like the other formats: the table's rows are written as results arrive; only the
/// details of cases that did not pass are kept, for the header (they come before the table), and
/// at most ``maxDetailed`` of them or ``maxDetailBytes`` bytes. A run of more than ``maxRows``
/// cases lists only the cases that did not pass. Whatever is left out, the page says how much.
struct HTMLReport: ReportFormat {
    /// Above this many cases the table lists only the cases that did not pass: a passing row costs
    /// about 215 bytes, so 20,000 of them are some 4 MB, which a browser still opens in a moment.
    static let maxRows = 20_000
    /// Cases shown in full; the rest are rows of the table, and the JSON report has every one.
    static let maxDetailed = 500
    static let maxDetailBytes = 4_000_000
    /// Up to this many cases' details are shown open; more are a list of one line each to open.
    static let maxOpen = 25

    /// A case's details, kept until the header is written. The `<details>` tag is made then,
    /// since whether it starts open depends on how many there are.
    struct DetailedCase {
        var classes: String
        var anchor: String
        var content: String
    }

    private var listsPassing = true
    private var position = 0
    private var rows = 0
    private var unlisted = 0
    private var detailed: [DetailedCase] = []
    private var detailBytes = 0
    private var notDetailed = 0
    private var newDriftCases = 0
    private var knownDriftCases = 0

    /// How many cases' details are held for the header (for tests: never a passing case).
    var keptDetails: Int { detailed.count }

    mutating func opening(baseURL: String, total: Int) -> String {
        listsPassing = total <= Self.maxRows
        return ""
    }

    mutating func adding(_ result: CaseResult) -> String {
        let anchor = "c\(position)"
        position += 1
        let drift = Self.drift(result)
        if drift == "new" { newDriftCases += 1 }
        if drift == "known" { knownDriftCases += 1 }
        let classes = ["case", result.outcome.rawValue, drift].compactMap { $0 }.joined(separator: " ")
        var isDetailed = false
        if result.outcome != .passed || !result.teardown.isEmpty {
            if detailed.count < Self.maxDetailed && detailBytes < Self.maxDetailBytes {
                let content = Self.caseDetails(result)
                detailBytes += content.utf8.count
                detailed.append(DetailedCase(classes: classes, anchor: anchor, content: content))
                isDetailed = true
            } else {
                notDetailed += 1
            }
        }
        guard rows < Self.maxRows, result.outcome != .passed || listsPassing else {
            unlisted += 1
            return ""
        }
        // A new block of rows every so often: the browser lays out only the blocks on screen.
        let block = rows > 0 && rows % Self.rowsPerBlock == 0 ? Self.nextBlock : ""
        rows += 1
        return block + Self.row(result, classes: classes, link: isDetailed ? anchor : nil)
    }

    func closing(_ report: VerifySummary) -> (header: String, trailer: String) {
        var header = Self.page(report)
        header += Self.summary(report)
        header += Self.filters(report, newDriftCases: newDriftCases, knownDriftCases: knownDriftCases)
        header += "<main>\n"
        header += detailsSection()
        var trailer = ""
        // A large run where every case passed needs no table at all.
        if listsPassing || rows > 0 {
            header += "<section id=\"cases\">\n<h2>Cases</h2>\n"
            if !listsPassing {
                header += "<p class=\"note\">The run has more than \(HTMLText.number(Self.maxRows)) cases, so this table lists only the cases that did not pass.</p>\n"
            }
            header += Self.tableHead
            trailer += "</tbody>\n</table>\n</div>\n"
            if unlisted > 0 {
                let what = listsPassing ? HTMLText.count(unlisted, "more case") : HTMLText.count(unlisted, "passing case")
                trailer += "<p class=\"note\">\(what) not listed here; the JSON report (<code>--report json=PATH</code>) has every one.</p>\n"
            }
            trailer += "</section>\n"
        }
        trailer += "</main>\n" + Self.footer + "</body>\n</html>\n"
        return (header, trailer)
    }

    /// The details section, from the cases kept.
    private func detailsSection() -> String {
        guard !detailed.isEmpty || notDetailed > 0 else { return "" }
        let count = HTMLText.count(detailed.count + notDetailed, "case")
        var section = "<section id=\"differs\">\n<h2>What differs <span class=\"count\">in \(count)</span></h2>\n"
        let open = detailed.count <= Self.maxOpen ? " open" : ""
        if open.isEmpty {
            section += "<p class=\"note\">Open a case to see what differs.</p>\n"
        }
        for item in detailed {
            section += "<details class=\"\(item.classes)\" id=\"\(item.anchor)\"\(open)>\n\(item.content)</details>\n"
        }
        if notDetailed > 0 {
            section += "<p class=\"note\">\(HTMLText.count(notDetailed, "more case")) that did not pass \(notDetailed == 1 ? "is" : "are") not detailed here (this page details the first \(HTMLText.number(detailed.count))); the table below lists \(notDetailed == 1 ? "it" : "them"), and the JSON report (<code>--report json=PATH</code>) has every one in full.</p>\n"
        }
        return section + "</section>\n"
    }

    /// `new` when a case has drift the baseline does not know, `known` when the baseline knows all
    /// of it, nil for a case that passed. Without a baseline every finding is new.
    static func drift(_ result: CaseResult) -> String? {
        guard result.outcome != .passed else { return nil }
        return !result.findings.isEmpty && result.findings.allSatisfy(\.isKnown) ? "known" : "new"
    }
}
