/// `contract lint`: everything that can be checked without a server.
public enum ContractLinter {
    /// Loads and checks the tree at `directory`; throws only when the directory cannot be listed.
    public static func lint(directory: String) throws(ContractSourceReader.ReadError) -> LintReport {
        // Lint reads cases from the model alone: their trees need not be kept.
        LintReport(try ContractLoader.load(directory: directory, keepsCaseTrees: false))
    }
}
