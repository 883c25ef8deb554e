import ContractSchema

/// The "did you mean" of a misspelt command name, for the executable, which links no schema code
/// of its own: the same edit-distance rule as the hints in diagnostics.
public enum CommandNames {
    /// The name among `names` closest to `word`, when it is close enough to be a typo.
    public static func closest(to word: String, among names: [String]) -> String? {
        Suggestion.closest(to: word, among: names)
    }
}
