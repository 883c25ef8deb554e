import Foundation

/// `--report KIND=PATH`: a report file written beside the console output, checked before
/// anything is loaded, so a typo in a path costs no run.
public struct ReportRequest: Sendable, Hashable {
    public var kind: FileReporter.Kind
    public var path: String

    public init(kind: FileReporter.Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    /// `json=PATH`, `junit=PATH`, `markdown=PATH` or `html=PATH`.
    public init(parsing text: String) throws(VerifyArgumentError) {
        guard let equals = text.firstIndex(of: "="), let kind = FileReporter.Kind(rawValue: String(text[..<equals])) else {
            throw VerifyArgumentError("--report must be 'json=PATH', 'junit=PATH', 'markdown=PATH' or 'html=PATH', found '\(text)'")
        }
        self.init(kind: kind, path: String(text[text.index(after: equals)...]))
    }

    /// Every report has a path, in a folder that exists, and a file of its own: two reports
    /// written to one file would overwrite each other.
    public static func check(_ requests: [ReportRequest]) throws(VerifyArgumentError) {
        var paths: Set<String> = []
        for request in requests {
            guard !request.path.isEmpty else { throw VerifyArgumentError("--report \(request.kind.rawValue)= needs a file path") }
            let url = URL(fileURLWithPath: request.path)
            let folder = url.deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw VerifyArgumentError("--report \(request.kind.rawValue): the folder '\(folder)' does not exist")
            }
            if FileManager.default.fileExists(atPath: request.path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw VerifyArgumentError("--report \(request.kind.rawValue): '\(request.path)' is a folder; give the path of a file to write")
            }
            // The folder with its links resolved: `alias/r.json` and `r.json` are one file when `alias` links here.
            let resolved = url.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
            guard paths.insert(resolved.appendingPathComponent(url.lastPathComponent).path).inserted else {
                throw VerifyArgumentError("--report: '\(request.path)' is given more than once; each report needs its own file")
            }
        }
    }

    func reporter() -> FileReporter {
        FileReporter(kind: kind, path: path)
    }
}
