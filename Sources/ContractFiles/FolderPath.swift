/// A path inside a folder, checked: relative, no `.` or `..` component, no empty component, no
/// `\` (a separator on Windows), no NUL. A path read from a manifest is one of these or is refused,
/// so no manifest can name a file outside its folder.
public struct FolderPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let components: [String]

    public init(validating text: String) throws(FolderPathError) {
        guard !text.isEmpty else { throw FolderPathError("the path is empty") }
        guard !text.hasPrefix("/") else { throw FolderPathError("the path '\(Self.shown(text))' is absolute; a manifest lists paths inside its folder") }
        guard !text.contains("\\") else { throw FolderPathError("the path '\(Self.shown(text))' holds '\\', a separator on Windows") }
        guard !text.utf8.contains(0) else { throw FolderPathError("the path '\(Self.shown(text))' holds a NUL character") }
        let components = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for component in components {
            switch component {
            case "": throw FolderPathError("the path '\(Self.shown(text))' has an empty component")
            case ".", "..": throw FolderPathError("the path '\(Self.shown(text))' has a '\(component)' component, which could leave the folder")
            default: break
            }
            // File systems refuse longer names; a longer one is no file this tool wrote.
            guard component.utf8.count <= 255 else { throw FolderPathError("the path '\(Self.shown(text))' has a component longer than 255 bytes") }
        }
        self.components = components
    }

    public var description: String { components.joined(separator: "/") }

    public static func < (lhs: FolderPath, rhs: FolderPath) -> Bool {
        lhs.description.utf8.lexicographicallyPrecedes(rhs.description.utf8)
    }

    /// The folders on the way, outermost first: `a/b/c.json` has `a` and `a/b`.
    var ancestors: [FolderPath] {
        (1..<max(1, components.count)).map { FolderPath(trusted: Array(components.prefix($0))) }
    }

    init(trusted components: [String]) {
        self.components = components
    }

    private static func shown(_ text: String) -> String {
        text.count > 120 ? String(text.prefix(120)) + "…" : text
    }
}

public struct FolderPathError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
