import ContractJSON
import ContractSchema

/// How a found value appears in a message: strings quoted as JSON and shortened, numbers as
/// written but shortened too (`MessageText`), literals as written, containers by kind.
func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .number(let number): return MessageText.clipped(number)
    case .string(let string):
        var quoted = ""
        CanonicalJSONWriter.writeString(MessageText.clipped(string), into: &quoted)
        return quoted
    case .array: return "an array"
    case .object: return "an object"
    }
}

/// The closest candidate to `word`, if it is close enough to be a likely typo.
func suggestion(for word: String, among candidates: [String]) -> String? {
    Suggestion.closest(to: word, among: candidates)
}

/// `, did you mean 'x'?` or nothing.
func didYouMean(_ word: String, among candidates: [String]) -> String {
    suggestion(for: word, among: candidates).map { ", did you mean '\($0)'?" } ?? ""
}
