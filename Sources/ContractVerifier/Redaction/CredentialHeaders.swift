import ContractRequests

/// Headers whose values are credentials by their name: given on the command line
/// (`--header 'Authorization: Bearer …'`), their values are secrets like `${env:…}` values.
enum CredentialHeaders {
    /// The names, as the stubs read them too (``CredentialNames``).
    static func isCredential(_ name: String) -> Bool {
        CredentialNames.isCredential(name)
    }

    /// The parts of a credential value a server may echo alone: the whole value; each word after
    /// an authentication scheme, whatever the scheme's token characters and the white space after
    /// it (`Bearer abc` → `abc`, `OAuth2\tabc`, `AWS4-HMAC-SHA256 Credential=…, Signature=…`);
    /// each parameter's or cookie's value (`Signature=abc`, `sid=abc`); each quoted parameter
    /// (`Token token="abc"` → `abc`). Parts shorter than ``minimumPart`` are left out, so a
    /// cookie `lang=en` does not mask every `en`.
    static func secretParts(of value: String) -> [String] {
        var parts = [value]
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        parts += words.dropFirst().map { String($0).trimming(",;") }
        for piece in value.split(whereSeparator: { " \t,;".contains($0) }) {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            parts.append(String(piece[piece.index(after: equals)...]).trimming("\""))
        }
        // Quoted parameters: `Token token="abc…"`, `Digest … response="…"`.
        let quoted = value.split(separator: "\"", omittingEmptySubsequences: false)
        for (index, piece) in quoted.enumerated() where index % 2 == 1 && index + 1 < quoted.count { parts.append(String(piece)) }
        return parts.filter { $0 == value || $0.count >= minimumPart }
    }

    static let minimumPart = 6
}

extension String {
    /// The text without any of `characters` at either end.
    fileprivate func trimming(_ characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
