import ContractModel
import Foundation

/// The HTML report's stylesheet, its filters, and the Content-Security-Policy that lets nothing
/// but that stylesheet run: no script, no image, no font, no request of any kind. Even if a
/// server's text ever escaped its escaping, the page could load nothing and run nothing.
enum HTMLStyle {
    /// The status filters: a radio input each, before `<main>`, and a rule hiding the cases it
    /// leaves out.
    enum Filter: CaseIterable, Hashable {
        case all, notPassed, failed, error, passed, new, known

        var id: String {
            switch self {
            case .all: "show-all"
            case .notPassed: "show-not-passed"
            case .failed: "show-failed"
            case .error: "show-error"
            case .passed: "show-passed"
            case .new: "show-new"
            case .known: "show-known"
            }
        }

        var label: String {
            switch self {
            case .all: "All"
            case .notPassed: "Did not pass"
            case .failed: "Failed"
            case .error: "No response"
            case .passed: "Passed"
            case .new: "New drift"
            case .known: "Known drift"
            }
        }

        /// New and known mean something only against a baseline.
        var needsBaseline: Bool { self == .new || self == .known }

        /// What this filter hides, inside `<main>`.
        var hides: [String] {
            switch self {
            case .all: []
            case .notPassed: [".case.passed"]
            case .failed: [".case:not(.failed)"]
            case .error: [".case:not(.error)"]
            // The details section holds no passing case: hidden whole rather than left as an empty heading.
            case .passed: [".case:not(.passed)", "#differs"]
            case .new: [".case:not(.new)"]
            case .known: [".case:not(.known)"]
            }
        }
    }

    static let contentSecurityPolicy = "default-src 'none'; style-src 'sha256-\(stylesheetHash)'; base-uri 'none'; form-action 'none'"

    /// The SHA-256 of the stylesheet, base64, as CSP wants it: the browser applies the page's
    /// `<style>` only if its text hashes to this, so an injected one would not apply either.
    static let stylesheetHash: String = {
        let hex = SHA256.hex(stylesheet.utf8)
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return Data(bytes).base64EncodedString()
    }()

    static let stylesheet: String = base + filterRules

    /// A filter's button looks pressed, and shows the keyboard focus, through its hidden input.
    ///
    /// Blocks of rows off screen are laid out only when scrolled to, standing in meanwhile at the
    /// height of ``HTMLReport/rowsPerBlock`` rows. Under a filter that hides most rows that height
    /// would be wrong, and the page would jump as blocks came into view, so those filters lay
    /// every block out: what they show is short.
    private static let filterRules: String = {
        var css = ".rows{content-visibility:auto;contain-intrinsic-size:auto \(HTMLReport.rowsPerBlock * 28)px}\n"
        css += Filter.allCases.filter { $0 != .all && $0 != .passed }.map { "#\($0.id):checked~main .rows" }.joined(separator: ",")
            + "{content-visibility:visible}\n"
        for filter in Filter.allCases {
            if !filter.hides.isEmpty {
                css += filter.hides.map { "#\(filter.id):checked~main \($0)" }.joined(separator: ",") + "{display:none}\n"
            }
            css += "#\(filter.id):checked~nav label[for=\(filter.id)]{background:var(--fg);color:var(--bg);border-color:var(--fg)}\n"
            css += "#\(filter.id):focus-visible~nav label[for=\(filter.id)]{outline:2px solid var(--accent);outline-offset:2px}\n"
        }
        return css
    }()

    private static let base = """
        :root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--pass:#1a7f37;--pass-soft:#dafbe1;\
        --fail:#cf222e;--fail-soft:#ffebe9;--error:#9a6700;--error-soft:#fff8c5;--known:#57606a;--known-soft:#eaeef2;--accent:#0969da}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--soft:#151b23;\
        --pass:#3fb950;--pass-soft:#12261e;--fail:#f85149;--fail-soft:#2d1214;--error:#d29922;--error-soft:#2e2410;\
        --known:#9198a1;--known-soft:#21262d;--accent:#4493f8}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif}
        code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12.5px}
        h1,h2,h3{line-height:1.25}
        h2{font-size:18px;margin:28px 0 12px}
        .summary{padding:20px 32px 8px;border-top:6px solid var(--fail);background:var(--soft);border-bottom:1px solid var(--line)}
        .summary.passed{border-top-color:var(--pass)}
        .summary .tool{margin:0;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.06em}
        .summary h1{margin:4px 0 8px;font-size:26px;color:var(--fail)}
        .summary.passed h1{color:var(--pass)}
        .intro{margin:0 0 16px;max-width:75em;color:var(--muted)}
        .tiles{display:flex;flex-wrap:wrap;gap:10px;margin:0 0 12px}
        .tile{min-width:120px;padding:8px 14px;border:1px solid var(--line);border-left:4px solid var(--known);border-radius:6px;background:var(--bg)}
        .tile dt{font-size:12px;color:var(--muted)}
        .tile dt small{display:block;font-size:11px}
        .tile dd{margin:0;font-size:24px;font-weight:600;font-variant-numeric:tabular-nums}
        .tile.passed{border-left-color:var(--pass)}
        .tile.failed,.tile.new{border-left-color:var(--fail)}
        .tile.error{border-left-color:var(--error)}
        .tile.fixed{border-left-color:var(--accent)}
        .tile.zero{border-left-color:var(--line)}
        .tile.zero dd{color:var(--muted);font-weight:400}
        .meta{margin:0 0 12px;color:var(--muted)}
        .fixed ul{padding-left:20px}
        .fixed h2{font-size:16px;margin:16px 0 4px}
        .fixed p{margin:0;color:var(--muted)}
        .fingerprint{color:var(--muted)}
        .filter{position:fixed;top:0;left:0;opacity:0;pointer-events:none}
        .filters{position:sticky;top:0;z-index:1;display:flex;flex-wrap:wrap;align-items:center;gap:6px;padding:8px 32px;background:var(--bg);border-bottom:1px solid var(--line)}
        .filters .show{color:var(--muted);margin-right:4px}
        .filters label{cursor:pointer;user-select:none;padding:3px 10px;border:1px solid var(--line);border-radius:999px}
        .filters label:hover{border-color:var(--muted)}
        .filters label.zero{color:var(--muted)}
        .filters .count{font-variant-numeric:tabular-nums;font-weight:600}
        .without-baseline .finding .state{display:none}
        main{padding:0 32px 24px}
        .note{color:var(--muted)}
        h2 .count{font-weight:400;color:var(--muted)}
        details.case{margin:0 0 6px;border:1px solid var(--line);border-left:4px solid var(--fail);border-radius:6px}
        details.case[open]{margin-bottom:14px}
        details.case.error{border-left-color:var(--error)}
        details.case.known{border-left-color:var(--known)}
        details.case>summary{cursor:pointer;padding:8px 12px;background:var(--soft);border-radius:0 6px 6px 0}
        details.case[open]>summary{border-bottom:1px solid var(--line);border-radius:0 6px 0 0}
        summary .name{font-weight:600;font-size:13.5px}
        summary .first{color:var(--muted);margin-left:6px}
        summary .more{color:var(--muted);font-size:12px;white-space:nowrap}
        .outcome{font-weight:600;white-space:nowrap}
        .failed .outcome{color:var(--fail)}
        .error .outcome{color:var(--error)}
        .passed .outcome{color:var(--pass)}
        .known .outcome{color:var(--known)}
        .with-baseline .case.known .outcome::after{content:" (known)";font-weight:400}
        .details{padding:4px 16px 12px}
        dl.exchange{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}
        dl.exchange dt{color:var(--muted)}
        dl.exchange dd{margin:0;min-width:0;overflow-wrap:anywhere}
        dd.missing{color:var(--error)}
        b.expected{color:var(--pass)}
        b.actual{color:var(--fail)}
        ol.findings{padding-left:0;list-style:none;margin:12px 0}
        .finding{padding:8px 12px;margin:0 0 8px;border:1px solid var(--line);border-radius:6px}
        .finding .what{margin:0;font-weight:600;overflow-wrap:anywhere}
        .facts{margin:2px 0 0;font-size:12.5px;color:var(--muted);overflow-wrap:anywhere}
        .facts span+span::before{content:"\\00b7";margin:0 6px}
        .facts code{color:var(--fg)}
        .facts span:last-child{white-space:nowrap}
        .baseline{margin:2px 0 0;font-size:13px}
        .finding.known .baseline{color:var(--known)}
        .finding.new .baseline{color:var(--fail)}
        .kind,.state{display:inline-block;font-size:11px;font-weight:600;padding:0 6px;border-radius:4px;margin-right:4px;vertical-align:1px;text-transform:uppercase;letter-spacing:.03em}
        .kind{background:var(--known-soft);color:var(--fg)}
        .finding.new .state{background:var(--fail-soft);color:var(--fail)}
        .finding.known .state{background:var(--known-soft);color:var(--known)}
        .comparison{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:8px;margin:8px 0 0}
        figure{margin:0;min-width:0}
        figcaption{font-size:12px;color:var(--muted);margin-bottom:2px}
        pre{margin:0;padding:8px 10px;background:var(--soft);border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}
        figure.expected pre{border-left:3px solid var(--pass)}
        figure.actual pre{border-left:3px solid var(--fail)}
        .same{margin:6px 0 0;font-size:13px;color:var(--muted)}
        .reproduce{margin:12px 0 0}
        .reproduce .label{margin:0 0 2px;font-size:12px;color:var(--muted)}
        .reproduce code{user-select:all}
        details.headers{margin:8px 0 0}
        details.headers summary{cursor:pointer;font-size:12px;color:var(--muted)}
        table{width:100%;border-collapse:collapse;table-layout:fixed}
        col.outcome{width:9em}
        col.response{width:11em}
        col.time{width:6em}
        col.name{width:28%}
        th{text-align:left;font-size:12px;color:var(--muted);font-weight:600;border-bottom:2px solid var(--line);padding:4px 8px}
        td{padding:3px 8px;line-height:21px;border-bottom:1px solid var(--line);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        td.request{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12.5px}
        .time{text-align:right;font-variant-numeric:tabular-nums}
        tr.failed td:first-child{box-shadow:inset 3px 0 var(--fail)}
        tr.error td:first-child{box-shadow:inset 3px 0 var(--error)}
        tr.known td:first-child{box-shadow:inset 3px 0 var(--known)}
        a{color:var(--accent)}
        footer{padding:12px 32px 24px;color:var(--muted);font-size:12px;border-top:1px solid var(--line)}

        """
}
