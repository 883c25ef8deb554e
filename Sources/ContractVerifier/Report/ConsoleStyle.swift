/// `--color`: whether the console shows colours and a live progress line.
public enum ColorChoice: String, Sendable, CaseIterable {
    /// On a terminal that can show them, unless the user said no (`NO_COLOR`, `TERM=dumb`).
    case auto
    case always
    case never
}

extension ConsoleReporter.Style {
    /// The console's style for `choice`. In `auto`, a terminal gets colours and the progress line
    /// unless `NO_COLOR` is set to anything (no-color.org) or `TERM` is `dumb` (a terminal that
    /// cannot move the cursor back to redraw the line, such as Emacs' shell); anything else (a
    /// pipe, a file, a CI log) gets plain text. `always` and `never` are obeyed as given.
    /// - Parameters:
    ///   - environment: the process's environment, where `NO_COLOR` and `TERM` are read.
    ///   - outputIsTerminal: whether standard output is a terminal (`isatty`).
    public init(choosing choice: ColorChoice, environment: [String: String], outputIsTerminal: Bool) {
        switch choice {
        case .always:
            self = .terminal
        case .never:
            self = .plain
        case .auto:
            let refused = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
            self = outputIsTerminal && !refused ? .terminal : .plain
        }
    }
}
