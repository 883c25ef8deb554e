import Foundation

/// Writes a line to standard error, where messages about the run itself belong.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
