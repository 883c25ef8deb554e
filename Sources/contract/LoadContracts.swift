import ArgumentParser
import ContractModel

/// The load stage for commands that act on contracts (verify, fixtures): a contracts tree with an
/// error stops the command with exit 2 and the errors on standard error, before anything is done.
/// `consequence` says what did not happen: "nothing was sent".
func loadValidContracts(_ directory: String, consequence: String) throws -> ContractSet {
    let set: ContractSet
    do {
        set = try ContractLoader.load(directory: directory)
    } catch {
        printError("error: \(error.message)")
        throw ExitCode(2)
    }
    if set.hasErrors {
        for diagnostic in set.diagnostics where diagnostic.severity == .error { printError(diagnostic.rendered) }
        printError("\(set.errorCount) error\(set.errorCount == 1 ? "" : "s") in the contracts; \(consequence) (run 'contract lint \(directory)')")
        throw ExitCode(2)
    }
    return set
}
