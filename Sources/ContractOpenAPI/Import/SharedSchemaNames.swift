import ContractJSON
import ContractModel

/// The file names of the shared schemas under `schemas/`, unique even on a file system that
/// ignores case (`Pet` and `pet`, or `Foo` and `.Foo`, must not share a file).
///
/// A component's file is its name, as it always was: every component's is fixed up front, so a
/// component keeps its name whatever else the document holds. Any other schema a reference
/// reaches is named when first reached, after where it is: a bundled file by its path without
/// the extension, shortened to the fewest trailing folders that tell it from the other bundled
/// files (`pet` for `./pet.yaml`, `a-pet` and `b-pet` for `a/pet.yaml` and `b/pet.yaml`),
/// followed by the pointer inside it (`common-Error` for `common.yaml#/Error`); a place elsewhere
/// in the document by its pointer (`paths-pets-get-…-schema`). A name already taken tries more of
/// the file's path (`definitions-pet` beside a component `Pet`), then a number.
struct SharedSchemaNames {
    private var names: [JSONPointer: String] = [:]
    /// Lowercased names (without `.json`) already given.
    private var taken: Set<String> = []
    /// For each bundled file: its readable names, shortest first (``pathNames(_:)``).
    private let fileNames: [String: [String]]

    /// Names longer than this leave room for a `-2` within what a file name may be.
    private static let longest = FixturePathName.maximumLength - 10

    init(document: OpenAPIDocument) {
        for name in (document.root["components"]?.objectValue?["schemas"]?.objectValue?.keys ?? []).sorted() {
            names[Self.component(name)] = Identifiers.unique(Identifiers.fileSafe(name), separator: "-", taken: &taken) { $0.lowercased() }
        }
        fileNames = Self.pathNames(document.root[ExternalReferences.area]?.objectValue?.keys ?? [])
    }

    static func component(_ name: String) -> JSONPointer {
        JSONPointer(tokens: ["components", "schemas", name])
    }

    /// The file name (with `.json`) of the shared schema at `target`, given on first request.
    mutating func fileName(of target: JSONPointer) -> String {
        if let name = names[target] { return name + ".json" }
        let candidates = candidates(for: target)
        let name = candidates.first { !taken.contains($0.lowercased()) }
            ?? Identifiers.unique(candidates.last ?? "schema", separator: "-", taken: &taken) { $0.lowercased() }
        taken.insert(name.lowercased())
        names[target] = name
        return name + ".json"
    }

    /// The file name already given to `target`.
    func given(_ target: JSONPointer) -> String? {
        names[target].map { $0 + ".json" }
    }

    /// The names `target` could have, most readable first, each file-safe.
    private func candidates(for target: JSONPointer) -> [String] {
        let tokens = target.tokens
        guard tokens.count >= 2, tokens[0] == ExternalReferences.area, let files = fileNames[tokens[1]] else {
            return [Self.safe(tokens.joined(separator: "-"))]
        }
        var inner = Array(tokens.dropFirst(2))
        // A bundled file's own section of schemas says nothing a reader needs in the name.
        if inner.count > 2, inner.starts(with: ["components", "schemas"]) {
            inner.removeFirst(2)
        } else if inner.count > 1, ["definitions", "$defs"].contains(inner[0]) {
            inner.removeFirst()
        }
        return files.map { Self.safe(([$0] + inner).joined(separator: "-")) }
    }

    private static func safe(_ text: String) -> String {
        let name = Identifiers.fileSafe(text)
        guard name.utf8.count > longest else { return name }
        return Identifiers.fileSafe(String(name.prefix(longest)))
    }

    /// For each bundled file (its path relative to the root document's folder): names made of its
    /// last 1, 2, … path parts (the extension left out), starting with the shortest that no other
    /// file shares, ignoring case.
    static func pathNames(_ keys: [String]) -> [String: [String]] {
        let parts = Dictionary(uniqueKeysWithValues: keys.map { key -> (String, [String]) in
            var parts = key.split(separator: "/").map(String.init)
            if let last = parts.last, let dot = last.lastIndex(of: "."), dot != last.startIndex,
                [".yaml", ".yml", ".json"].contains(last[dot...].lowercased())
            {
                parts[parts.count - 1] = String(last[..<dot])
            }
            return (key, parts)
        })
        func suffix(_ parts: [String], _ count: Int) -> String { parts.suffix(count).joined(separator: "-") }
        // How many files share each ending, by length.
        var shared: [String: Int] = [:]
        for file in parts.values {
            for count in 1...max(file.count, 1) { shared[suffix(file, count).lowercased() + "/\(count)", default: 0] += 1 }
        }
        return parts.mapValues { file in
            let total = max(file.count, 1)
            let first = (1...total).first { shared[suffix(file, $0).lowercased() + "/\($0)"] == 1 } ?? total
            return (first...total).map { suffix(file, $0) }
        }
    }
}
