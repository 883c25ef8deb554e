import Foundation

/// The credentials a base URL can carry (`https://user:password@host`): secrets in every form
/// they travel in.
public enum BaseURL {
    /// `user:password` of `scheme://user:password@host/…`, as written (percent-encoded).
    static func userInformation(_ url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return String(authority[..<at])
    }

    /// The user information as written and decoded, the password alone, the user alone when it
    /// is long enough to be a token (`https://ghp_…:x-oauth-basic@…`), and the Basic credential
    /// that libcurl sends from them (base64 of `user:password`).
    static func secretParts(ofUserInformation written: String) -> [String] {
        let decoded = written.removingPercentEncoding ?? written
        var parts = [written, decoded]
        let pieces = decoded.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if pieces.count == 2 { parts.append(pieces[1]) }
        if let user = pieces.first, user.count >= CredentialHeaders.minimumPart { parts.append(user) }
        parts.append(Data(decoded.utf8).base64EncodedString())
        return parts.filter { !$0.isEmpty }
    }

    /// `url` as an error message may show it: the user information replaced by `***`.
    public static func shown(_ url: String) -> String {
        guard let userInformation = userInformation(url), let range = url.range(of: userInformation + "@") else { return url }
        return url.replacingCharacters(in: range, with: Secrets.mask + "@")
    }
}
