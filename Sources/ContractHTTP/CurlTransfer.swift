import CCurl

/// One request in flight: the easy handle's configuration, the buffers its callbacks fill, and
/// what to do with the outcome. Only the engine's thread touches it between `start` and `finish`.
final class CurlTransfer: @unchecked Sendable {
    /// The request of the current hop: the one asked for, or the one a redirect led to.
    private(set) var request: HTTPRequest
    /// Redirects followed so far (``RedirectHop``).
    private(set) var redirects = 0
    /// When the first hop was configured: ``HTTPOptions/timeout`` is the whole request's, hops
    /// included, as it was when libcurl followed them.
    private var started: ContinuousClock.Instant?
    /// The earlier hops' timings, added to the last's (libcurl added them up the same way).
    private var earlier = HTTPTimings()
    let options: HTTPOptions
    /// 1 for the first try; a retry is a new transfer with the next number.
    let attempt: Int
    /// How long a follow-up waits in its slot before it is sent (``StreamRequest/pause``).
    let pause: Duration
    /// Receives the outcome and the attempts made, exactly once, on the engine's thread; a fed
    /// transfer may answer with the next transfer of its slot (a case's next step).
    private let deliver: (Result<HTTPResponse, TransportError>, Int) -> CurlTransfer?
    private var resumed = false

    private(set) var handle: UnsafeMutableRawPointer?
    /// The feeder the transfer came from, if any (the engine's thread only).
    var feeder: CurlFeeder?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    // Appended to from libcurl's callbacks, a dozen times per response, on the engine's thread only:
    // the dynamic exclusivity checks a class property gets on every mutation cost more than the
    // appends.
    @exclusivity(unchecked) private var body: [UInt8] = []
    @exclusivity(unchecked) private var headers = HTTPHeaders(reservingBytes: 512, fields: 16)
    private var bodyExceeded = false

    /// - Parameter redirects: those followed before this request (a retry of a later hop).
    init(
        request: HTTPRequest, options: HTTPOptions, attempt: Int = 1, redirects: Int = 0, pause: Duration = .zero,
        deliver: @escaping (Result<HTTPResponse, TransportError>, Int) -> CurlTransfer?
    ) {
        self.request = request
        self.options = options
        self.attempt = attempt
        self.pause = pause
        self.redirects = redirects
        isPlainGET = request.body == nil && request.method == "GET"
        self.deliver = deliver
        // libcurl writes a terminated message here on failure; an empty string means none.
        errorBuffer.initialize(to: 0)
    }

    deinit {
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// A plain GET (no body, no custom method) leaves nothing on its handle that the next plain GET
    /// with the same options would not set again, so the engine reuses such a handle without
    /// `curl_easy_reset` and its dozen options: on loopback that cost a sixth of a request.
    private(set) var isPlainGET: Bool

    /// Configures `handle` for this request: from scratch when `configured` is false (a fresh or
    /// reset handle), else only what differs between plain GETs with the same options. The
    /// reason when an option is refused, which only a malformed request causes.
    func configure(_ handle: UnsafeMutableRawPointer, configured: Bool) -> TransportError? {
        self.handle = handle
        let context = Unmanaged.passUnretained(self).toOpaque()
        var failed: CURLcode = CURLE_OK
        func set(_ code: CURLcode) { if code != CURLE_OK && failed == CURLE_OK { failed = code } }

        if !configured { configureOptions(handle, set) }
        if options.maxRedirects > 0, started == nil { started = ContinuousClock.now }
        if redirects > 0, let started {
            let now = ContinuousClock.now
            // What is left of the whole request's time; the handle is reset once this hop ends
            // (``CurlEngine``), so the next transfer gets the full timeout again.
            let left = options.timeout - (now - started)
            guard left > .zero else {
                return TransportError(kind: .timeout, detail: "the request and its redirects took longer than \(Self.milliseconds(options.timeout)) ms")
            }
            set(ccurl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, Self.milliseconds(left))))
        }
        set(ccurl_easy_setopt_string(handle, CURLOPT_URL, request.url))
        set(ccurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        set(ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        set(ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context))

        if !isPlainGET {
            let method = request.method.uppercased()
            // Sent as the request line's first word: a space or a line break would start another
            // line of the caller's choosing. A method is an RFC 9110 token.
            guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !"\"(),/:;<=>?@[\\]{}".utf8.contains($0) }) else {
                return TransportError(kind: .other, detail: "the method is not an HTTP token: not sent")
            }
            if method == "HEAD" {
                set(ccurl_easy_setopt_long(handle, CURLOPT_NOBODY, 1))
            } else if method != "GET" || request.body != nil {
                set(ccurl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method))
            }
        }
        if let body = request.body {
            set(ccurl_easy_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS: libcurl keeps its own copy, so no Swift buffer must outlive the call.
            body.withUnsafeBytes { bytes in
                set(ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer))))
            }
        }
        // Each `Name: value` line made as bytes in one buffer: a string interpolated and bridged
        // to C for each field cost more than libcurl's copy of it.
        var line: [UInt8] = []
        for header in request.headers {
            line.removeAll(keepingCapacity: true)
            line.appendUTF8(header.name)
            line.append(UInt8(ascii: ":"))
            line.append(UInt8(ascii: " "))
            line.appendUTF8(header.value)
            // libcurl sends a field as given: a line break would end it and start fields (or a
            // request) of whoever chose the value. Callers check what they fill in; this is the
            // last place a request passes before the wire.
            if line.contains(where: { ($0 < 0x20 && $0 != UInt8(ascii: "\t")) || $0 == 0x7F }) {
                return TransportError(kind: .other, detail: "a header holds a line break or another control character, which no request may carry: not sent")
            }
            line.append(0)
            headerList = line.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { curl_slist_append(headerList, $0.baseAddress) }
            }
        }
        // curl would otherwise add `Expect: 100-continue` to larger bodies and wait for a reply.
        if request.body != nil { headerList = curl_slist_append(headerList, "Expect:") }
        // Set even when empty: a reused handle must not keep the list of the transfer before.
        set(ccurl_easy_setopt_list(handle, CURLOPT_HTTPHEADER, headerList))

        guard failed == CURLE_OK else {
            return TransportError(kind: failed == CURLE_URL_MALFORMAT ? .invalidURL : .other, detail: Self.describe(failed), curlCode: Int(failed.rawValue))
        }
        return nil
    }

    /// What every transfer with these options shares.
    private func configureOptions(_ handle: UnsafeMutableRawPointer, _ set: (CURLcode) -> Void) {
        set(ccurl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(ccurl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(options.timeout)))
        set(ccurl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(options.connectTimeout)))
        // Redirects are followed hop by hop by the engine (``RedirectHop``), never by libcurl.
        set(ccurl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, options.verifiesTLS ? 1 : 0))
        set(ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, options.verifiesTLS ? 2 : 0))
        if let path = options.caCertificatePath { set(ccurl_easy_setopt_string(handle, CURLOPT_CAINFO, path)) }
        // HTTP/2 over TLS when the server offers it through ALPN; HTTP/1.1 in clear text.
        set(ccurl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
        // An empty string asks for every encoding this libcurl decodes.
        if options.decodesContent { set(ccurl_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")) }
        // Stops early when the server announces a larger body; the write callback catches the rest.
        set(ccurl_easy_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxBodyBytes)))
        set(ccurl_easy_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent))
        set(ccurl_easy_setopt_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
        set(ccurl_easy_setopt_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
    }

    // MARK: Callbacks (on the engine's thread)

    fileprivate func appendBody(_ data: UnsafeRawBufferPointer) -> Bool {
        guard body.count + data.count <= options.maxBodyBytes else {
            bodyExceeded = true
            return false
        }
        body.append(contentsOf: data)
        return true
    }

    fileprivate func appendHeaderLine(_ data: UnsafeRawBufferPointer) {
        // Works on bytes: Swift strings treat "\r\n" as one character, and this runs per header line.
        var end = data.count
        while end > 0, data[end - 1] == UInt8(ascii: "\n") || data[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end >= 5, data[0] == UInt8(ascii: "H"), data[1] == UInt8(ascii: "T"), data[2] == UInt8(ascii: "T"), data[3] == UInt8(ascii: "P"),
            data[4] == UInt8(ascii: "/")
        {
            // A new status line: an interim (1xx) or redirected response's headers are not this one's.
            headers.removeAll()
            return
        }
        guard let colon = data[..<end].firstIndex(of: UInt8(ascii: ":")) else { return }
        var valueStart = colon + 1
        while valueStart < end, data[valueStart] == UInt8(ascii: " ") || data[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
        var valueEnd = end
        while valueEnd > valueStart, data[valueEnd - 1] == UInt8(ascii: " ") || data[valueEnd - 1] == UInt8(ascii: "\t") { valueEnd -= 1 }
        let name = UnsafeRawBufferPointer(rebasing: data[..<colon])
        let value = UnsafeRawBufferPointer(rebasing: data[valueStart..<valueEnd])
        headers.append(name: name, value: value)
        // The body then grows once instead of doubling its way up; at most 1 MiB up front, since
        // a HEAD (or a lying server) announces a length that never comes.
        if body.isEmpty, HTTPHeader.namesEqual(name, "Content-Length".utf8),
            let length = Int(String(decoding: value, as: UTF8.self)), length > 0
        {
            body.reserveCapacity(min(length, options.maxBodyBytes, 1 << 20))
        }
    }

    // MARK: Completion

    /// Builds the outcome from the finished handle and resumes the waiting task, once.
    func finish(code: CURLcode) {
        guard let handle else { return resume(.failure(TransportError(kind: .other, detail: "no handle"))) }
        if code != CURLE_OK {
            return resume(.failure(classify(code, handle: handle)))
        }
        var status = 0
        var version = 0
        ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        ccurl_easy_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        // The last hop's URL is its request's (the engine follows redirects itself).
        resume(.success(HTTPResponse(
            status: status, headers: headers, body: body, httpVersion: Self.versionName(version), timings: earlier.adding(timings(handle)),
            effectiveURL: request.url, redirects: redirects)))
    }

    func cancel() {
        resume(.failure(TransportError(kind: .cancelled, detail: "")))
    }

    /// What follows the hop just finished on `handle`: nil when its response is the answer (no
    /// redirects asked for, not a redirect, or no `Location`), else the next hop's request, or
    /// the error when more redirects came than ``HTTPOptions/maxRedirects``.
    func redirect(from handle: UnsafeMutableRawPointer) -> Result<HTTPRequest, TransportError>? {
        guard options.maxRedirects > 0 else { return nil }
        var status = 0
        ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard RedirectHop.statuses.contains(status) else { return nil }
        // libcurl resolves the `Location` against this hop's URL.
        var target: UnsafeMutablePointer<CChar>? = nil
        ccurl_easy_getinfo_string(handle, CURLINFO_REDIRECT_URL, &target)
        guard let target else { return nil }
        guard redirects < options.maxRedirects else {
            return .failure(TransportError(kind: .tooManyRedirects, detail: "more than \(options.maxRedirects) redirects followed"))
        }
        let url = String(cString: target)
        // A `file:`, `ftp:` or app URL is not fetched, and a body is not sent on to another
        // origin: the redirect is then the answer, checked like any response.
        guard let next = RedirectHop.next(after: request, status: status, target: url) else { return nil }
        earlier = earlier.adding(timings(handle))
        return .success(next)
    }

    /// Makes this transfer the next hop's: its request, and buffers emptied for its response.
    func follow(_ next: HTTPRequest) {
        request = next
        isPlainGET = next.body == nil && next.method == "GET"
        redirects += 1
        body.removeAll(keepingCapacity: true)
        headers.removeAll()
        bodyExceeded = false
        curl_slist_free_all(headerList)
        headerList = nil
        handle = nil
    }

    /// Cancels a retry still waiting for its pause: it was never sent, so the attempts made are
    /// those before it.
    func cancelWaiting() {
        guard !resumed else { return }
        resumed = true
        _ = deliver(.failure(TransportError(kind: .cancelled, detail: "")), attempt - 1)
    }

    func fail(_ error: TransportError) {
        resume(.failure(error))
    }

    private func resume(_ result: Result<HTTPResponse, TransportError>) {
        guard !resumed else { return }
        resumed = true
        // A fed transfer that met a transient error goes back to its feeder for another try.
        if case .failure(let error) = result, error.isTransient, let feeder, attempt <= feeder.retries {
            feeder.retry(CurlTransfer(request: request, options: options, attempt: attempt + 1, redirects: redirects, deliver: deliver))
            return
        }
        // The slot's next transfer takes the slot over at once: a case's steps run back to back.
        if let next = deliver(result, attempt), let feeder { feeder.followUp(next) }
    }

    private func timings(_ handle: UnsafeMutableRawPointer) -> HTTPTimings {
        func time(_ info: CURLINFO) -> Duration {
            var microseconds: curl_off_t = 0
            ccurl_easy_getinfo_offset(handle, info, &microseconds)
            return .microseconds(microseconds)
        }
        var timings = HTTPTimings()
        timings.dnsLookup = time(CURLINFO_NAMELOOKUP_TIME_T)
        timings.connect = time(CURLINFO_CONNECT_TIME_T)
        timings.tlsHandshake = time(CURLINFO_APPCONNECT_TIME_T)
        timings.firstByte = time(CURLINFO_STARTTRANSFER_TIME_T)
        timings.total = time(CURLINFO_TOTAL_TIME_T)
        return timings
    }

    private func classify(_ code: CURLcode, handle: UnsafeMutableRawPointer) -> TransportError {
        var detail = errorBuffer.pointee == 0 ? Self.describe(code) : String(cString: errorBuffer)
        // libcurl cuts a long message at the buffer's end without a word; mark the cut as every
        // other clip does, so what is shown is known to be partial (and a secret cut there is masked).
        if errorBuffer.pointee != 0 && detail.utf8.count >= Int(CURL_ERROR_SIZE) - 1 { detail += "…" }
        var osError = 0
        ccurl_easy_getinfo_long(handle, CURLINFO_OS_ERRNO, &osError)
        let kind: TransportError.Kind
        switch code {
        case CURLE_URL_MALFORMAT: kind = .invalidURL
        case CURLE_UNSUPPORTED_PROTOCOL:
            // Before a connection, the URL's scheme; after one, a reply that is not HTTP (HTTP/0.9).
            var connected: curl_off_t = 0
            ccurl_easy_getinfo_offset(handle, CURLINFO_CONNECT_TIME_T, &connected)
            kind = connected > 0 ? .protocolError : .invalidURL
        case CURLE_COULDNT_RESOLVE_HOST: kind = .dnsFailure
        case CURLE_COULDNT_CONNECT: kind = osError == Int(ECONNREFUSED_VALUE) ? .connectionRefused : .connectFailed
        case CURLE_OPERATION_TIMEDOUT: kind = .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            kind = .tls
        case CURLE_FILESIZE_EXCEEDED: kind = .bodyTooLarge
        case CURLE_WRITE_ERROR where bodyExceeded: kind = .bodyTooLarge
        case CURLE_TOO_MANY_REDIRECTS: kind = .tooManyRedirects
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR: kind = .connectionLost
        case CURLE_BAD_CONTENT_ENCODING: kind = .badContentEncoding
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM: kind = .protocolError
        default: kind = .other
        }
        if kind == .bodyTooLarge {
            return TransportError(kind: kind, detail: "the limit is \(options.maxBodyBytes) bytes", curlCode: Int(code.rawValue))
        }
        return TransportError(kind: kind, detail: detail, curlCode: Int(code.rawValue))
    }

    private static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private static func versionName(_ version: Int) -> String {
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_2_0): "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): "HTTP/3"
        default: "HTTP/1.1"
        }
    }
}

/// `ECONNREFUSED` without importing Glibc or Darwin into this file's callers.
private let ECONNREFUSED_VALUE: Int32 = {
    #if canImport(Glibc)
    return 111
    #else
    return 61
    #endif
}()

// libcurl calls these with the transfer as context; they must not capture anything.
private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    // Returning less than given makes libcurl fail the transfer with CURLE_WRITE_ERROR.
    return transfer.appendBody(bytes) ? size * count : 0
}

private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
    return size * count
}
