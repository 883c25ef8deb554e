/// `--report junit=PATH`: one test suite per contract, one test case per case, for CI systems
/// that show test results (GitHub, GitLab, Jenkins, Buildkite).
enum JUnitReport {
    static func render(_ report: VerifyReport) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(
            #"<testsuites name="contract verify" tests="\#(report.results.count)" failures="\#(report.failed)" errors="\#(report.errors)" time="\#(seconds(report.duration))">"#)
        var groups: [(String, [CaseResult])] = []
        for result in report.results {
            if let last = groups.indices.last, groups[last].0 == result.contractID {
                groups[last].1.append(result)
            } else {
                groups.append((result.contractID, [result]))
            }
        }
        for (contract, results) in groups {
            let failures = results.count { $0.outcome == .failed }
            let errors = results.count { $0.outcome == .error }
            let time = results.reduce(Duration.zero) { $0 + $1.duration }
            lines.append(
                #"  <testsuite name="\#(escape(contract))" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" time="\#(seconds(time))">"#)
            for result in results {
                let open = #"    <testcase classname="\#(escape(contract))" name="\#(escape(result.caseName))" file="\#(escape(result.file))" time="\#(seconds(result.duration))""#
                guard result.outcome != .passed else {
                    lines.append(open + "/>")
                    continue
                }
                lines.append(open + ">")
                let element = result.outcome == .error ? "error" : "failure"
                let first = result.findings.first
                let details = ReportFormatting.details(result).joined(separator: "\n")
                lines.append(
                    #"      <\#(element) message="\#(escape(first?.message ?? ""))" type="\#(first?.kind.rawValue ?? "")">\#(escape(details))</\#(element)>"#)
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = ReportFormatting.milliseconds(duration)
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// XML 1.0 text and attribute escaping; characters XML cannot carry at all become U+FFFD.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n", "\t", "\r": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }
}
