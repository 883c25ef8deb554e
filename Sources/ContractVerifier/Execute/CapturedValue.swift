import ContractHTTP
import ContractJSON
import ContractModel
import ContractSchema

/// Reads one capture from a response: a value of its JSON body or a header's, whole or the part
/// its pattern picks out.
enum CapturedValue {
    struct Failure: Error {
        var message: String
    }

    /// - Parameter body: the parsed JSON body; nil when no capture of the step reads the body.
    static func read(_ capture: SetupStep.Capture, body: JSONValue?, headers: HTTPHeaders) -> Result<JSONValue, Failure> {
        let whole: JSONValue
        switch capture.source {
        case .body(let pointer):
            guard let body else { return .failure(Failure(message: "the body is not JSON")) }
            do {
                whole = try body.resolve(pointer)
            } catch {
                return .failure(Failure(message: error.message))
            }
        case .header(let name):
            guard let value = headers.value(of: name) else { return .failure(Failure(message: "the response has no such header")) }
            whole = .string(value)
        }
        guard let pattern = capture.pattern else { return .success(whole) }
        guard case .string(let text) = whole else {
            return .failure(Failure(message: "a pattern picks a part of a text, found \(whole.typeName)"))
        }
        // The loader compiled the pattern already; a pattern it refused never reaches a run.
        guard let regex = try? ECMARegex(pattern) else { return .failure(Failure(message: "the pattern does not compile")) }
        let length = text.unicodeScalars.count
        let stepLimit = ECMARegex.stepLimit(forLength: length)
        let (result, found) = regex.search(in: text, stepLimit: stepLimit)
        guard let match = found else {
            if result == .gaveUp {
                return .failure(Failure(
                    message: "the pattern gave up after \(stepLimit) backtracking steps on a text of \(length) characters, '\(MessageText.clipped(text))' "
                        + "(a pattern such as (a+)+ backtracks without end; write it without nested repeats)"))
            }
            return .failure(Failure(message: "the pattern does not match '\(MessageText.clipped(text))'"))
        }
        if match.groups.isEmpty { return .success(.string(match.text)) }
        guard let group = match.groups[0] else {
            return .failure(Failure(message: "the pattern's first group takes no part in its match of '\(MessageText.clipped(text))'"))
        }
        return .success(.string(group))
    }
}
