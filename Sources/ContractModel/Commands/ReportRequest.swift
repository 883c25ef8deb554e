import ContractFiles
import Foundation

/// `--report KIND=PATH`, as verify, merge and diff take it: a report file written beside the
/// console output, checked before anything is loaded, so a typo in a path costs no run. `Kind`
/// is the command's own report kinds (verify's `json`, `junit`, `markdown`, `html`; diff's
/// `text` too).
public struct ReportRequest<Kind: RawRepresentable & CaseIterable & Sendable & Hashable>: Sendable, Hashable where Kind.RawValue == String {
    public var kind: Kind
    /// The path as given; relative to the working directory of ``checked(_:workingDirectory:)``.
    public var path: String

    public init(kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    /// `json=PATH`, for one of `Kind`'s kinds.
    public init(parsing text: String) throws(DiagnosticsError) {
        guard let equals = text.firstIndex(of: "="), let kind = Kind(rawValue: String(text[..<equals])) else {
            let kinds = Kind.allCases.map { "'\($0.rawValue)=PATH'" }
            let listed = kinds.dropLast().joined(separator: ", ") + (kinds.count > 1 ? " or " : "") + (kinds.last ?? "")
            throw DiagnosticsError(argument: "--report must be \(listed), found '\(text)'")
        }
        self.init(kind: kind, path: String(text[text.index(after: equals)...]))
    }

    /// `--report` arguments as typed, parsed and checked: every report has a path, in a folder
    /// that exists, and a file of its own (two reports written to one file would overwrite each
    /// other).
    /// - Parameter workingDirectory: where relative paths are; the process's when nil.
    public static func checked(_ arguments: [String], workingDirectory: String? = nil) throws(DiagnosticsError) -> [ReportRequest] {
        var requests: [ReportRequest] = []
        for text in arguments { requests.append(try ReportRequest(parsing: text)) }
        var paths: Set<String> = []
        for request in requests {
            guard !request.path.isEmpty else { throw DiagnosticsError(argument: "--report \(request.kind.rawValue)= needs a file path") }
            let url = request.url(in: workingDirectory)
            let folder = url.deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw DiagnosticsError(argument: "--report \(request.kind.rawValue): the folder '\(folder)' does not exist")
            }
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw DiagnosticsError(argument: "--report \(request.kind.rawValue): '\(request.path)' is a folder; give the path of a file to write")
            }
            // Said before the run, not after it: the writer refuses such a path anyway.
            if let refusal = OutputFile.refusal(of: url.path) {
                throw DiagnosticsError(argument: "--report \(request.kind.rawValue): \(refusal.description)")
            }
            // The folder with its links resolved: `alias/r.json` and `r.json` are one file when `alias` links here.
            let resolved = url.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
            guard paths.insert(resolved.appendingPathComponent(url.lastPathComponent).path).inserted else {
                throw DiagnosticsError(argument: "--report: '\(request.path)' is given more than once; each report needs its own file")
            }
        }
        return requests
    }

    /// The file to write: `path`, relative to `workingDirectory` when it is relative.
    public func url(in workingDirectory: String?) -> URL {
        guard let workingDirectory, !path.hasPrefix("/") else { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: workingDirectory).appendingPathComponent(path)
    }
}
