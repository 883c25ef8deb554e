import CCurl

/// A redirect followed by the engine itself, not by libcurl: libcurl sends every custom header
/// again to wherever a `Location` points, and `--header 'X-API-Key: …'` would then reach another
/// host. Here the next request is made from the one before by the rules browsers follow, and a
/// hop to another origin carries only the headers a browser sends without asking
/// (``crossOriginHeaders``). The timeout covers the hops together, and the timings add up.
enum RedirectHop {
    /// The statuses whose `Location` is followed (RFC 9110 §15.4); 300 and 304 are answers.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The CORS-safelisted request headers (Fetch standard): nothing a server can trust as a
    /// credential. Any other header (Authorization, Cookie, an API key under any name) stays
    /// with the origin it was written for.
    static let crossOriginHeaders: [String] = ["Accept", "Accept-Language", "Content-Language", "Content-Type"]

    /// The request that follows `request` answered by `status` with a `Location` that libcurl
    /// resolved to `target` (absolute); nil when it is not followed: a target that is not HTTP
    /// or HTTPS (libcurl never followed `file:`, and an app's own scheme is no server), or a
    /// 307 or 308 that would send the request's body to another origin (a body can hold a
    /// password as well as a header can).
    static func next(after request: HTTPRequest, status: Int, target: String) -> HTTPRequest? {
        // Parsed once: its scheme says whether it is followed, its origin whether it is the same.
        guard let targetOrigin = origin(of: target), targetOrigin.hasPrefix("http://") || targetOrigin.hasPrefix("https://") else { return nil }
        let crossesOrigin = targetOrigin != origin(of: request.url)
        if crossesOrigin, status == 307 || status == 308, request.body != nil { return nil }
        var next = request
        next.url = target
        // 303 asks for a GET of the target; 301 and 302 turn a POST into a GET, as browsers and
        // libcurl do. 307 and 308 repeat the method and the body.
        let method = request.method.uppercased()
        if (status == 303 && method != "HEAD" && method != "GET") || ((status == 301 || status == 302) && method == "POST") {
            next.method = "GET"
            next.body = nil
            next.headers.removeAll { $0.hasName("Content-Type") || $0.hasName("Content-Length") }
        }
        if crossesOrigin {
            next.headers.removeAll { header in !crossOriginHeaders.contains { header.hasName($0) } }
        }
        return next
    }

    /// Scheme, host and port (the scheme's default when none is written), as libcurl parses the
    /// URL; nil for a URL it cannot parse, which no other URL's origin equals.
    static func origin(of url: String) -> String? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST), let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)) else {
            return nil
        }
        // An IPv6 address's zone (`fe80::1%eth0`) names the interface: another zone, another host.
        let zone = part(CURLUPART_ZONEID).map { "%" + $0 } ?? ""
        return "\(scheme.lowercased())://\(host.lowercased())\(zone):\(port)"
    }
}
