import ContractModel
import Foundation

extension VerifyOptions {
    /// Checks every option before anything is loaded or sent: the base URL, the ranges, the CA
    /// file, the headers and the shard. ``VerifyPlan`` calls it too, so a library caller cannot
    /// run options the command would refuse.
    public func validate() throws(VerifyArgumentError) {
        try BaseURLSyntax.check(baseURL)
        if let shard = selection.shard, !shard.isValid {
            throw VerifyArgumentError("--shard must be 'i/n' with 1 <= i <= n, found '\(shard.index)/\(shard.count)'")
        }
        if let shard = selection.shard, shard.count > Shard.maxCount {
            throw VerifyArgumentError(
                "--shard splits a run in at most \(Shard.maxCount) parts (contract merge reads that many reports), found '\(shard.index)/\(shard.count)'")
        }
        guard concurrency >= 1 else { throw VerifyArgumentError("--concurrency must be at least 1, found \(concurrency)") }
        guard retries >= 0 else { throw VerifyArgumentError("--retries must not be negative, found \(retries)") }
        guard maxRedirects >= 0 else { throw VerifyArgumentError("--max-redirects must not be negative, found \(maxRedirects)") }
        // libcurl reads a timeout of 0 as none at all.
        guard timeout > .zero else { throw VerifyArgumentError("--timeout must be above 0 seconds, found \(timeout)") }
        guard connectTimeout > .zero else { throw VerifyArgumentError("--connect-timeout must be above 0 seconds, found \(connectTimeout)") }
        if let path = caCertificatePath { try Self.checkReadableFile(path) }
        for header in extraHeaders { try HeaderArgument.check(header) }
    }

    private static func checkReadableFile(_ path: String) throws(VerifyArgumentError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else {
            throw VerifyArgumentError("--cacert '\(path)' is not a readable file")
        }
    }
}
