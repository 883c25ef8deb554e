import ContractJSON

/// One problem found in the contracts, printed compiler-style so editors and CI annotate it:
/// `contracts/products/get.json:14:17: error: message [/cases/0/response/status]`.
public struct Diagnostic: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error
        case warning
        case note

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }
    }

    public var severity: Severity
    public var message: String
    /// The file as the user named it (relative to where the tool runs, when it was given so); nil
    /// for a problem no file holds (an argument, an environment variable only a `--header` uses).
    public var file: String?
    /// Nil when the problem concerns the file as a whole (it cannot be read, say).
    public var location: SourceLocation?
    /// Where in the JSON document the problem is; nil when the document could not be parsed.
    public var pointer: JSONPointer?

    public init(severity: Severity, message: String, file: String?, location: SourceLocation? = nil, pointer: JSONPointer? = nil) {
        self.severity = severity
        self.message = message
        self.file = file
        self.location = location
        self.pointer = pointer
    }

    public static func error(_ message: String, file: String?, location: SourceLocation? = nil, pointer: JSONPointer? = nil) -> Diagnostic {
        Diagnostic(severity: .error, message: message, file: file, location: location, pointer: pointer)
    }

    public static func warning(_ message: String, file: String?, location: SourceLocation? = nil, pointer: JSONPointer? = nil) -> Diagnostic {
        Diagnostic(severity: .warning, message: message, file: file, location: location, pointer: pointer)
    }

    /// `file:line:column: severity: message [pointer]`, or `severity: message` for a problem no
    /// file holds; the pointer is left out for the document root. Each of the pointer's keys is
    /// cut short, as values in messages are: a key can be megabytes. The file's path is shown as
    /// ``ShownText`` shows text (a path is whatever a checkout or an archive named the file, and
    /// `ESC [2K` in one would rewrite the terminal's line); an ordinary path is unchanged.
    public var rendered: String {
        var text = ""
        if let file {
            text = ShownText.oneLine(file)
            if let location { text += ":\(location.line):\(location.column)" }
            text += ": "
        }
        text += "\(severity.rawValue): \(message)"
        if let pointer, !pointer.isRoot { text += " [\(JSONPointer(tokens: pointer.tokens.map { MessageText.oneLine($0) }))]" }
        return text
    }
}

extension Diagnostic: Comparable {
    /// By file, then position, then severity and message, so output never depends on discovery order.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        // Problems no file holds come first, as the command line comes before the files.
        if lhs.file != rhs.file { return (lhs.file ?? "").utf8.lexicographicallyPrecedes((rhs.file ?? "").utf8) }
        let left = lhs.location?.offset ?? -1
        let right = rhs.location?.offset ?? -1
        if left != right { return left < right }
        // Locations read from YAML carry no byte offset: line and column order them.
        let leftPosition = (lhs.location?.line ?? 0, lhs.location?.column ?? 0)
        let rightPosition = (rhs.location?.line ?? 0, rhs.location?.column ?? 0)
        if leftPosition != rightPosition { return leftPosition < rightPosition }
        if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
        return lhs.message.utf8.lexicographicallyPrecedes(rhs.message.utf8)
    }
}
