import ContractModel
import Foundation

extension VerifyOptions {
    /// Checks every option before anything is loaded or sent: the base URL, the ranges, the CA
    /// file, the headers and the shard. ``VerifyPlan`` calls it too, so a library caller cannot
    /// run options the command would refuse.
    public func validate() throws(DiagnosticsError) {
        try BaseURLSyntax.check(baseURL)
        if let shard = selection.shard, !shard.isValid {
            throw DiagnosticsError(argument: "--shard must be 'i/n' with 1 <= i <= n, found '\(shard.index)/\(shard.count)'")
        }
        if let shard = selection.shard, shard.count > Shard.maxCount {
            throw DiagnosticsError(argument: 
                "--shard splits a run in at most \(Shard.maxCount) parts (contract merge reads that many reports), found '\(shard.index)/\(shard.count)'")
        }
        guard concurrency >= 1 else { throw DiagnosticsError(argument: "--concurrency must be at least 1, found \(concurrency)") }
        if let writeConcurrency, writeConcurrency < 1 {
            throw DiagnosticsError(argument: "--write-concurrency must be at least 1, found \(writeConcurrency)")
        }
        guard retries >= 0 else { throw DiagnosticsError(argument: "--retries must not be negative, found \(retries)") }
        guard retries <= Refusal.maxRetries else {
            throw DiagnosticsError(argument: "--retries is at most \(Refusal.maxRetries) (each request sent that many times again at most), found \(retries)")
        }
        if let status = retryStatuses.sorted().first(where: { !Refusal.retryable.contains($0) }) {
            throw DiagnosticsError(argument:
                "--retry-status takes 408, 429 or 503 (answers by which a server says it did not act on the request), found \(status): "
                    + "any other answer may follow a request the server carried out, and is checked as it is")
        }
        if !retryStatuses.isEmpty, retries == 0 {
            throw DiagnosticsError(argument: "--retry-status needs --retries N: how many times a refused request may be sent again")
        }
        guard maxRedirects >= 0 else { throw DiagnosticsError(argument: "--max-redirects must not be negative, found \(maxRedirects)") }
        // libcurl reads a timeout of 0 as none at all.
        guard timeout > .zero else { throw DiagnosticsError(argument: "--timeout must be above 0 seconds, found \(timeout)") }
        guard connectTimeout > .zero else { throw DiagnosticsError(argument: "--connect-timeout must be above 0 seconds, found \(connectTimeout)") }
        if let path = caCertificatePath { try Self.checkReadableFile(path) }
        for header in extraHeaders { try HeaderArgument.check(header) }
    }

    private static func checkReadableFile(_ path: String) throws(DiagnosticsError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else {
            throw DiagnosticsError(argument: "--cacert '\(path)' is not a readable file")
        }
    }
}
