extension Diagnostic {
    /// A problem with a command's arguments, which no file holds: "no case matches the
    /// selection", an environment variable only a `--header` uses.
    public static func argumentError(_ message: String) -> Diagnostic {
        .error(message, file: "")
    }

    /// The line a command prints: ``rendered``, or `error: message` for a problem no file holds.
    public var printed: String {
        guard file.isEmpty else { return rendered }
        // Without a file a line and column place nothing; what is left of `rendered` starts with
        // the empty file's colon and space.
        var fileLess = self
        fileLess.location = nil
        return String(fileLess.rendered.dropFirst(2))
    }
}
