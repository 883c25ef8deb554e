import Testing

@testable import ContractModel

/// The table of first cases per name fold is sized once for a contract's cases; past that size
/// it grows rather than fill every slot (a full table would probe for an empty slot forever).
struct CaseNameFoldsTests {
    @Test func keepsEveryFoldWhenGivenMoreThanItsCapacity() {
        var folds = CaseNameFolds(capacity: 2)
        let names = (0..<1_000).map { "case-\($0)" }
        for (position, name) in names.enumerated() {
            #expect(folds.position(of: name, foldOf: { names[$0] }) == nil)
            folds.insert(name, at: position)
        }
        for (position, name) in names.enumerated() {
            #expect(folds.position(of: name, foldOf: { names[$0] }) == position)
        }
        #expect(folds.position(of: "case-1000", foldOf: { names[$0] }) == nil)
    }
}
