/// A `curl` command line that sends the same request, for pasting into a terminal. Built from
/// the displayed request, so secrets appear as `***`.
enum CurlCommand {
    static func line(for request: DisplayedRequest) -> String {
        var parts = ["curl", "-i"]
        if request.method == "HEAD" && request.body == nil {
            // `-X HEAD` would wait for the body the server does not send.
            parts.append("--head")
        } else if request.method != "GET" || request.body != nil {
            // Quoted too: a method read back from an edited report is any text.
            parts += ["-X", quote(request.method)]
        }
        parts.append(quote(request.url))
        for header in request.headers {
            parts += ["-H", quote("\(header.name): \(header.value)")]
        }
        if let body = request.body {
            parts += ["--data-raw", quote(body)]
        }
        return parts.joined(separator: " ")
    }

    /// POSIX shell single quotes: nothing inside is special except the quote itself.
    static func quote(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || "-_./:=@%+,".unicodeScalars.contains(scalar)
        }
        if safe && !text.isEmpty { return text }
        return "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
