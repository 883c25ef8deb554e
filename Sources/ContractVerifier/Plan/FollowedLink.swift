/// A link a response gave (a `next` page, a `Location`), turned into the URL a request to it is
/// sent to. Only a link on the server under test is followed: the requests carry its credentials,
/// and a server that answers with another origin's URL (drift, or a hostile server) would
/// otherwise have them sent where it says.
///
/// - An absolute URL (`http://host:port/items?cursor=b`) must have the base URL's scheme, host
///   and port, and no user information of its own; it is sent with the base URL's authority.
/// - An absolute path (`/items?cursor=b`) is on the base URL's origin.
/// - A relative reference (`?cursor=b`, `items?cursor=b`) is resolved, as RFC 3986 has it,
///   against the URL of the request whose response gave the link; where the link is not one
///   captured value, against the base URL read as a folder.
/// - A fragment is never sent; characters a URL cannot hold (a space, non-ASCII) are
///   percent-encoded; a control character, or a length past ``maxBytes``, refuses the link.
enum FollowedLink {
    /// The longest link followed, in bytes once percent-encoded.
    static let maxBytes = 65_536

    /// Why a request is not sent: a link not followed, or (``part`` `request-header`) a header whose
    /// filled-in value no request may carry.
    struct Refusal: Error, Equatable {
        var message: String
        /// What the finding's rule is named after: `url`, `setup.url`; `request-header`, `setup.request-header`.
        var part = "url"
        /// The request's URL as shown, when it is known (a header refused, not a link).
        var shownURL: String?
    }

    /// The URL to send to for `link`, or why it is not followed.
    /// - Parameters:
    ///   - baseURL: the run's base URL, without a trailing `/`.
    ///   - referrer: the URL of the request whose response gave the link, where known.
    static func resolve(_ link: String, baseURL: String, referrer: String?) -> Result<String, Refusal> {
        guard !link.isEmpty else { return .failure(Refusal(message: "the link is empty")) }
        if link.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(Refusal(message: "the link has a control character"))
        }
        // Checked before encoding too, so a link of megabytes is not encoded first.
        guard link.utf8.count <= maxBytes else { return .failure(tooLong(link.utf8.count)) }
        let withoutFragment = link.firstIndex(of: "#").map { String(link[..<$0]) } ?? link
        let reference = encoded(withoutFragment)
        guard reference.utf8.count <= maxBytes else { return .failure(tooLong(reference.utf8.count)) }
        guard let base = Parts(baseURL) else { return .failure(Refusal(message: "the base URL has no origin")) }
        if let scheme = schemeOf(reference) {
            return sameOrigin(reference, scheme: scheme, base: base)
        }
        if reference.hasPrefix("//") {
            return sameOrigin(base.scheme + ":" + reference, scheme: base.scheme, base: base)
        }
        if reference.hasPrefix("/") {
            return .success(base.origin + reference)
        }
        // Relative: against the referrer's path (its last segment replaced) or the base's folder.
        let against = referrer.flatMap(Parts.init) ?? base
        let folderPath = referrer == nil ? against.path + "/" : against.path
        // Nothing but a fragment: the page that gave the link, its query included.
        if reference.isEmpty { return .success(base.origin + against.pathAndQuery) }
        if reference.hasPrefix("?") { return .success(base.origin + against.path + reference) }
        let directory = folderPath.lastIndex(of: "/").map { String(folderPath[...$0]) } ?? "/"
        return .success(base.origin + directory + reference)
    }

    /// A link as a request not sent shows it: past ``maxBytes`` cut, with `…`.
    static func shown(_ link: String) -> String {
        guard link.utf8.count > maxBytes else { return link }
        var bytes = 0
        var end = link.unicodeScalars.startIndex
        for scalar in link.unicodeScalars {
            bytes += scalar.utf8.count
            guard bytes <= maxBytes else { break }
            end = link.unicodeScalars.index(after: end)
        }
        return String(link.unicodeScalars[..<end]) + Secrets.cutMark
    }

    private static func tooLong(_ bytes: Int) -> Refusal {
        Refusal(message: "the link is \(ResponseChecker.grouped(bytes)) bytes long; a link is followed up to \(ResponseChecker.grouped(maxBytes)) bytes")
    }

    /// A link as a message quotes it: cut where it is long.
    private static func quoted(_ link: String) -> String {
        "'" + ResponseChecker.clip(link, to: 200) + "'"
    }

    /// An absolute link's scheme, host and port checked against the base URL's.
    private static func sameOrigin(_ link: String, scheme: String, base: Parts) -> Result<String, Refusal> {
        guard let parts = Parts(link) else { return .failure(Refusal(message: "the link \(quoted(link)) has no host")) }
        if parts.hasUserInformation {
            return .failure(Refusal(message: "the link \(quoted(BaseURL.shown(link))) carries user information, and a link is followed only without it"))
        }
        guard parts.scheme == base.scheme, parts.host == base.host, parts.port == base.port else {
            return .failure(Refusal(
                message: "the link \(quoted(link)) is not on the server under test (\(base.scheme)://\(base.hostAndPort)); "
                    + "a link is followed only on the base URL's scheme, host and port"))
        }
        return .success(base.origin + parts.pathAndQuery)
    }

    /// The scheme of an absolute URL (RFC 3986 `scheme ":"`), lowercased; nil for a reference (a
    /// colon after a `/` or `?` belongs to a path or query, `/a:b`, which no scheme has).
    private static func schemeOf(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), BaseURLSyntax.isScheme(text[..<colon]) else { return nil }
        return text[..<colon].lowercased()
    }

    /// Every byte a URL cannot hold as it is, percent-encoded; `%` is kept, as the link's own
    /// encoding.
    private static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if byte > 0x20, byte < 0x7F, !#""<>\^`{|}"#.utf8.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                result += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return result
    }

    /// `scheme://[userinfo@]host[:port]path?query`, split where the comparisons need it.
    struct Parts {
        var scheme: String
        /// The authority as written, user information included: what requests are sent with.
        var authority: Substring
        var host: String
        /// The port, the scheme's default where none is written.
        var port: Int?
        var path: String
        var pathAndQuery: String
        var hasUserInformation: Bool

        var origin: String { "\(scheme)://\(authority)" }
        var hostAndPort: String { port.map { "\(host):\($0)" } ?? host }

        init?(_ url: String) {
            guard let schemeEnd = url.range(of: "://") else { return nil }
            scheme = url[..<schemeEnd.lowerBound].lowercased()
            let rest = url[schemeEnd.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            self.authority = authority
            let at = authority.lastIndex(of: "@")
            hasUserInformation = at != nil
            let hostAndPort = at.map { authority[authority.index(after: $0)...] } ?? authority
            var hostText = hostAndPort
            var portText: Substring = ""
            if let close = hostAndPort.lastIndex(of: "]") {
                hostText = hostAndPort[...close]
                portText = hostAndPort[hostAndPort.index(after: close)...].drop { $0 == ":" }
            } else if let colon = hostAndPort.lastIndex(of: ":") {
                hostText = hostAndPort[..<colon]
                portText = hostAndPort[hostAndPort.index(after: colon)...]
            }
            guard !hostText.isEmpty else { return nil }
            host = hostText.lowercased()
            let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
            port = portText.isEmpty ? defaultPort : Int(portText)
            if !portText.isEmpty, port == nil { return nil }
            pathAndQuery = String(rest[authority.endIndex...])
            path = String(pathAndQuery.prefix { $0 != "?" })
        }
    }
}
