extension Diagnostic {
    /// A problem with a command's arguments, which no file holds: "no case matches the
    /// selection", an environment variable only a `--header` uses.
    public static func argumentError(_ message: String) -> Diagnostic {
        .error(message, file: nil)
    }
}
