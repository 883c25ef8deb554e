/// Headers whose values are credentials by their name: given on the command line
/// (`--header 'Authorization: Bearer …'`), their values are secrets like `${env:…}` values.
enum CredentialHeaders {
    /// Exact names, lowercased.
    private static let names: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey", "x-apikey",
        "x-auth-token", "x-access-token", "x-csrf-token", "x-xsrf-token", "private-token", "x-vault-token", "x-goog-api-key",
        "ocp-apim-subscription-key", "x-amz-security-token",
    ]
    /// Words that make any other name a credential: a masked harmless value costs less than a shown key.
    private static let words = ["auth", "token", "secret", "password", "passwd", "api-key", "apikey", "api_key", "credential", "session", "signature", "cookie"]

    static func isCredential(_ name: String) -> Bool {
        let name = name.lowercased()
        return names.contains(name) || words.contains { name.contains($0) }
    }

    /// The parts of a credential value a server may echo alone: the whole value; the credential
    /// after an authentication scheme (`Bearer abc` → `abc`); each cookie's value; each quoted
    /// parameter (`Token token="abc"` → `abc`). Parts shorter
    /// than ``minimumPart`` are left out, so a cookie `lang=en` does not mask every `en`.
    static func secretParts(of value: String) -> [String] {
        var parts = [value]
        let words = value.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 2, words[0].allSatisfy(\.isLetter) { parts.append(String(words[1])) }
        for cookie in value.split(separator: ";") {
            guard let equals = cookie.firstIndex(of: "=") else { continue }
            parts.append(String(cookie[cookie.index(after: equals)...]).trimmingSpaces)
        }
        // Quoted parameters: `Token token="abc…"`, `Digest … response="…"`.
        let quoted = value.split(separator: "\"", omittingEmptySubsequences: false)
        for (index, piece) in quoted.enumerated() where index % 2 == 1 && index + 1 < quoted.count { parts.append(String(piece)) }
        return parts.filter { $0 == value || $0.count >= minimumPart }
    }

    static let minimumPart = 6
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
