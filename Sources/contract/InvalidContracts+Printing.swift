import ContractModel

extension InvalidContracts {
    /// Every error on standard error, then what did not happen (`consequence`: "nothing was
    /// sent") and how to see the warnings too.
    func print(consequence: String) {
        for diagnostic in diagnostics { printError(diagnostic.printed) }
        guard directoryIsReadable else { return }
        let count = diagnostics.count
        printError("\(count) error\(count == 1 ? "" : "s") in the contracts; \(consequence) (run 'contract lint \(directory)')")
    }
}
