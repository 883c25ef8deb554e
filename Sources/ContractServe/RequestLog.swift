import ContractJSON
import ContractMockServer
import ContractModel
import Foundation

/// One line per request, in words or as JSON (`--log json`): what was asked, what answered, and
/// every reason a request was refused. Values that may be secrets (credential headers and query
/// items) never appear: a text line shows the path without its query, a JSON line the journal's
/// masked entry.
struct RequestLog: Sendable {
    let format: ServeRun.LogFormat
    let lenient: Bool

    func line(for received: MockServer.Received) -> String {
        switch format {
        case .json: return json(received)
        case .text: return text(received)
        }
    }

    /// A line about the server itself (a reload).
    func note(_ message: String) -> String {
        switch format {
        case .text: return message
        case .json:
            return CanonicalJSONWriter(style: .compact, sortsKeys: false).string(.object(JSONObject([
                .init(key: "time", value: .string(Self.timestamp())), .init(key: "event", value: .string(message)),
            ])))
        }
    }

    private func text(_ received: MockServer.Received) -> String {
        let status = received.status.map(String.init) ?? "---"
        let request = "\(received.method) \(MessageText.clipped(received.path, to: 120))"
        var line = "\(status) \(request)"
        if let fixture = received.fixture { line += " -> \(fixture)" }
        if !received.violations.isEmpty {
            let listing = received.violations.map(\.description).joined(separator: "; ")
            line += received.answeredAnyway
                ? " (answered anyway: \(lenient ? "--lenient" : "allowed"); it breaks its contract: \(listing))"
                : " breaks its contract: \(listing)"
        } else if let mismatch = received.mismatch {
            // The reason opens with the request, which the line has already said.
            let opening = "\(received.method) \(received.path) "
            line += ": " + (mismatch.hasPrefix(opening) ? String(mismatch.dropFirst(opening.count)) : mismatch)
        }
        if !received.faults.isEmpty { line += " [faults: \(received.faults.joined(separator: ", "))]" }
        if received.status == nil { line += " (connection dropped)" }
        // A value decoded from the query or path (`%1B]52;…`) would reach the terminal as sent.
        return ShownText.oneLine(line)
    }

    private func json(_ received: MockServer.Received) -> String {
        guard case .object(let entry) = received.json else { return "" }
        let members = [JSONObject.Member(key: "time", value: .string(Self.timestamp()))] + entry.members
        return CanonicalJSONWriter(style: .compact, sortsKeys: false).string(.object(JSONObject(members)))
    }

    static func timestamp() -> String {
        Date().ISO8601Format()
    }
}
