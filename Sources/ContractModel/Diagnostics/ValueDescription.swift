import ContractJSON

/// How a found value appears in a message: strings quoted as JSON and shortened, numbers and
/// literals as written, containers by kind.
func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .number(let number): return number.description
    case .string(let string):
        let short = string.count > 40 ? String(string.prefix(40)) + "…" : string
        var quoted = ""
        CanonicalJSONWriter.writeString(short, into: &quoted)
        return quoted
    case .array: return "an array"
    case .object: return "an object"
    }
}

/// The closest candidate to `word` by edit distance, if it is close enough to be a likely typo.
func suggestion(for word: String, among candidates: [String]) -> String? {
    let lowered = word.lowercased()
    if let sameLetters = candidates.first(where: { $0.lowercased() == lowered }) { return sameLetters }
    let limit = max(1, min(3, word.count / 3))
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(lowered, candidate.lowercased())
        if distance <= limit, distance < (best?.distance ?? Int.max) {
            best = (candidate, distance)
        }
    }
    return best?.candidate
}

/// `, did you mean 'x'?` or nothing.
func didYouMean(_ word: String, among candidates: [String]) -> String {
    suggestion(for: word, among: candidates).map { ", did you mean '\($0)'?" } ?? ""
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
