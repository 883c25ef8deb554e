import Testing

@testable import ContractVerifier

/// `Finding.Kind` is a struct over a private enum, so adding a kind breaks no user; the names the
/// reports print stay as they were (the reports' golden files pin them).
struct FindingTests {
    @Test func everyKindPrintsWhatItDidAndIsOnlyItself() {
        let printed: [(Finding.Kind, String)] = [
            (.status, "status"), (.header, "header"), (.contentType, "content-type"), (.body, "body"), (.setup, "setup"), (.transport, "transport"),
            (.teardown, "teardown"),
        ]
        #expect(printed.count == Finding.Kind.Base.allCases.count, "a kind without its printed name here")
        for (kind, name) in printed {
            #expect(kind.rawValue == name && "\(kind)" == name)
            #expect(Finding.Kind(rawValue: name) == kind)
            #expect(printed.filter { $0.0 == kind }.count == 1, "\(name)")
        }
    }
}
