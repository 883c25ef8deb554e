import Testing

@testable import ContractSchema

/// "Did you mean" counts a typo as a person sees it: two letters swapped are one slip.
struct SuggestionTests {
    @Test(arguments: [
        ("required", "required", 0), ("reqiured", "required", 1), ("tpye", "type", 1), ("kitten", "sitting", 3),
        ("", "abc", 3), ("ca", "abc", 3), ("abcd", "badc", 2), ("properites", "properties", 1),
    ])
    func editDistance(_ a: String, _ b: String, _ distance: Int) {
        #expect(Suggestion.editDistance(a, b) == distance)
        #expect(Suggestion.editDistance(b, a) == distance, "symmetric")
    }

    @Test func aSwappedPairInAShortWordIsStillSuggested() {
        // Four letters allow one edit: `tpye` was two edits from `type`, and got no suggestion.
        #expect(Suggestion.closest(to: "tpye", among: ["type", "title", "enum"]) == "type")
        #expect(Suggestion.closest(to: "mimimum", among: ["minimum", "maximum"]) == "minimum")
        #expect(Suggestion.closest(to: "zzzz", among: ["type", "enum"]) == nil)
    }
}
