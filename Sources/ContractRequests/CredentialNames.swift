/// Names of headers and parameters whose values are credentials: never shown in a message, a
/// report or a problem. Verify masks such headers given on its command line; the stubs hide
/// such values in what a request breaks. One rule for both.
public enum CredentialNames {
    /// Exact names, lowercased.
    private static let names: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey", "x-apikey",
        "x-auth-token", "x-access-token", "x-csrf-token", "x-xsrf-token", "private-token", "x-vault-token", "x-goog-api-key",
        "ocp-apim-subscription-key", "x-amz-security-token",
    ]
    /// Words that make any other name a credential: a masked harmless value costs less than a shown key.
    private static let words = ["auth", "token", "secret", "password", "passwd", "api-key", "apikey", "api_key", "credential", "session", "signature", "cookie"]

    /// A credential by its name. Verify masks such a value wherever it echoes in a report, so an
    /// `X-Idempotency-Key` is not one: masking it everywhere would hide what a report is for.
    public static func isCredential(_ name: String) -> Bool {
        let name = name.lowercased()
        return names.contains(name) || words.contains { name.contains($0) }
    }

    /// A credential, or any name with `key` in it (`private_key`, `X-Client-Key`): for a value
    /// shown once in a test's failure, where hiding a harmless one costs nothing.
    public static func mayBeCredential(_ name: String) -> Bool {
        isCredential(name) || name.lowercased().contains("key")
    }
}
