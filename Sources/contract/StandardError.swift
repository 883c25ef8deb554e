import Foundation

/// Writes a line to standard error, where messages about the run itself belong. A reader that
/// went away is not an error of the command's (`contract serve`, which ignores SIGPIPE, goes on).
func printError(_ line: String) {
    try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
}
