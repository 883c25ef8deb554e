import ContractModel
/// What a base URL must be before anything is sent: an `http` or `https` URL with a host, an
/// optional port from 1 to 65535, and a path that paths can be appended to. libcurl would refuse
/// most of what fails here only when the first request goes out, and the run would then say the
/// server is unreachable (exit 3) for what is a typo in an argument.
enum BaseURLSyntax {
    static func check(_ url: String) throws(DiagnosticsError) {
        // The user information may be a password: never shown, whatever else is wrong.
        let shown = "'\(ShownText.escaped(BaseURL.shown(url)))'"
        func invalid(_ why: String) -> DiagnosticsError {
            DiagnosticsError(argument: "--base-url \(shown) is not a URL the verifier can use: \(why)")
        }
        guard !url.isEmpty else { throw DiagnosticsError(argument: "--base-url is empty; give the server's URL, e.g. http://127.0.0.1:8080") }
        if url.unicodeScalars.contains(where: isControl) {
            throw invalid("it has a control character")
        }
        if url.unicodeScalars.contains(where: \.properties.isWhitespace) {
            throw invalid("it has a space (in a path, write %20)")
        }
        guard let schemeEnd = url.range(of: "://"), isScheme(url[..<schemeEnd.lowerBound]),
            ["http", "https"].contains(url[..<schemeEnd.lowerBound].lowercased())
        else {
            throw DiagnosticsError(argument: "--base-url must be an http:// or https:// URL, found \(shown)")
        }
        let rest = url[schemeEnd.upperBound...]
        if rest.contains("?") || rest.contains("#") {
            throw invalid("it has a query or a fragment, and the contracts' paths are appended to it (give query values in the contracts)")
        }
        let authority = rest.prefix { $0 != "/" }
        // The user information ends at the last `@` (a password may hold one, percent-encoded or not).
        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        let host: Substring
        let port: Substring?
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { throw invalid("its IPv6 address has no closing ']'") }
            host = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            let after = hostAndPort[hostAndPort.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw invalid("'\(after)' follows its IPv6 address, where only ':port' may") }
            port = after.isEmpty ? nil : after.dropFirst()
            guard !host.isEmpty, host.unicodeScalars.allSatisfy(isIPv6Character) else {
                throw invalid("'[\(host)]' is not an IPv6 address")
            }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            host = hostAndPort[..<colon]
            port = hostAndPort[hostAndPort.index(after: colon)...]
        } else {
            host = hostAndPort
            port = nil
        }
        guard !host.isEmpty else { throw invalid("it has no host (expected scheme://host[:port][/path])") }
        if !hostAndPort.hasPrefix("["), let bad = host.unicodeScalars.first(where: { !isHostCharacter($0) }) {
            throw invalid("a host name cannot have '\(bad)'")
        }
        // An empty port (`host:`) means the scheme's default, as RFC 3986 has it.
        if let port, !port.isEmpty {
            guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), let number = Int(port), (1...65535).contains(number) else {
                throw invalid("its port '\(port)' is not a number from 1 to 65535")
            }
        }
    }

    /// C0 controls, DEL and C1 controls: what `ShownText` escapes for display, among others.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    /// A registered name's characters (RFC 3986: unreserved, percent-encoded, sub-delimiters), and
    /// any non-ASCII character, which an internationalized name may have.
    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return true }
        return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~%!$&'()*+,;=".unicodeScalars.contains(scalar)
    }

    /// Hexadecimal digits, `:` and `.` (an embedded IPv4 address), and a zone after `%25`.
    private static func isIPv6Character(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ":.%-_~".unicodeScalars.contains(scalar))
    }
}
