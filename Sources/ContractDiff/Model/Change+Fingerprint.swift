import ContractModel

extension Change {
    /// 16 hex digits naming what changed: the rule, the contract, the case and the subject;
    /// never the values or places, so the same change has the same fingerprint in every run and
    /// an ignore entry keeps holding while the pull request is edited.
    public var fingerprint: String {
        var hash = SHA256()
        for part in [rule, contractID, caseName ?? "", subject] {
            hash.update(part)
            hash.update([0])
        }
        return String(hash.hexDigest().prefix(16))
    }
}
