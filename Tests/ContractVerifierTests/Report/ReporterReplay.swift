import ContractVerifier

extension VerifyReporter {
    /// Drives a reporter as a run with these results does: started, each result in plan order
    /// (or in `order`, positions as a concurrent run delivers them), completed.
    func replay(_ report: VerifyReport, order: [Int]? = nil) throws {
        try receive(.started(total: report.results.count, baseURL: report.baseURL))
        for position in order ?? Array(report.results.indices) {
            try receive(.finished(report.results[position], position: position))
        }
        try receive(.completed(report.summary))
    }
}
