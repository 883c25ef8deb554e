import ContractModel
extension Baseline {
    /// The baseline as reports may show it: every text in it (a reason may quote a token, a
    /// hostile file may hold terminal escapes) masked and escaped like the server's text. The
    /// run's identity keeps the digest of the file as written.
    func shown(through secrets: Secrets) -> Baseline {
        func shown(_ text: String) -> String { ShownText.escaped(secrets.redact(text)) }
        return Baseline(entries: entries.map { entry in
            Baseline.Entry(
                fingerprint: ShownText.escaped(entry.fingerprint), caseName: shown(entry.caseName), rule: entry.rule.map(shown),
                place: entry.place.map(shown), reason: entry.reason.map(shown), expires: entry.expires.map(ShownText.escaped))
        })
    }
}
