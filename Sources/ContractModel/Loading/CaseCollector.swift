import ContractJSON

/// A contract's cases, decoded one at a time, with the checks that span them: a name used twice,
/// or differing from an earlier one only in case. The same whether the cases come from the whole
/// parsed document or one by one as the parse finishes each (``CaseStream``).
struct CaseCollector {
    private(set) var cases: [ContractCase] = []
    /// Where each name was first used (a pointer is made only for a message): the first name of
    /// each fold (as file systems that ignore case fold names), and each name that differs in
    /// case from the first of its fold, by their position in `cases`.
    private var firstOfFold: CaseNameFolds
    private var caseVariants: [String: Int] = [:]
    /// The element of `cases` in the file each case was decoded from.
    private var elementOfCase: [Int32] = []
    private static let casesPointer = JSONPointer(tokens: ["cases"])

    /// `capacity`: the cases there will be, when known.
    init(capacity: Int) {
        cases.reserveCapacity(capacity)
        elementOfCase.reserveCapacity(capacity)
        firstOfFold = CaseNameFolds(capacity: capacity)
    }

    /// Room for `count` cases in all, so the cases array grows once, not by doubling: a large
    /// contract's cases are most of its model, and a doubling held up to twice them.
    mutating func reserve(_ count: Int) {
        guard count > cases.capacity else { return }
        cases.reserveCapacity(count)
        elementOfCase.reserveCapacity(count)
    }

    var count: Int { cases.count }
    var capacity: Int { cases.capacity }

    /// Decodes the element at `index` of `cases` and keeps it, unless its name is taken.
    mutating func add(_ value: JSONValue, at index: Int, path: PathTemplate?, decoder: inout DocumentDecoder) {
        guard let testCase = decoder.decodeCase(Field(value: value, in: Self.casesPointer, at: String(index)), path: path) else { return }
        let folded = FixturePathName.collisionKey(testCase.name)
        let fold = firstOfFold.position(of: folded) { FixturePathName.collisionKey(cases[$0].name) }
        let first = fold.flatMap { cases[$0].name == testCase.name ? $0 : nil } ?? caseVariants[testCase.name]
        if let first {
            let place = DocumentDecoder.where(location(ofCase: first, in: decoder.document))
            decoder.error("duplicate case name '\(testCase.name)', first used\(place)", at: Self.namePointer(index))
            return
        }
        if let fold {
            let place = DocumentDecoder.where(location(ofCase: fold, in: decoder.document))
            decoder.error(
                "case name '\(testCase.name)' differs only in case from '\(cases[fold].name)', first used\(place); file systems that ignore case would give both one fixture file",
                at: Self.namePointer(index))
            caseVariants[testCase.name] = cases.count
        } else {
            firstOfFold.insert(folded, at: cases.count)
        }
        elementOfCase.append(Int32(truncatingIfNeeded: index))
        cases.append(consume testCase)
    }

    private static func namePointer(_ element: Int) -> JSONPointer { casesPointer.appending(element).appending("name") }

    private func location(ofCase position: Int, in document: JSONDocument) -> SourceLocation? {
        document.location(of: Self.namePointer(Int(elementOfCase[position])))
    }
}
