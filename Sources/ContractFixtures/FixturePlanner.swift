import ContractJSON
import ContractModel
import ContractSchema

/// The plan stage of `contract fixtures`: one fixture per case, built from the contract alone.
/// Pure and deterministic: the same contracts give the same bytes on any machine (canonical JSON,
/// sorted keys, synthesis seeded by the case's name, no timestamps).
public struct FixturePlanner: Sendable {
    let set: ContractSet
    let catalog: SchemaCatalog

    /// Each document's digest and the files its `$ref`s name, computed once per run.
    let schemaFiles: [String: (digest: String, references: [String])]
    /// Shared files by the absolute `$id` at their root: a file reached by `$id` counts too.
    let identifiers: [String: String]

    public init(_ set: ContractSet) {
        self.set = set
        catalog = SchemaCatalog(set)
        let writer = CanonicalJSONWriter(style: .compact)
        var files: [String: (digest: String, references: [String])] = [:]
        let identifiers = BodySynthesizer.identifiers(in: set.documents)
        self.identifiers = identifiers
        for (path, document) in set.documents {
            files[path] = (SHA256.hex(writer.bytes(document.value)), Self.referencedFiles(in: document.value, from: path, identifiers: identifiers))
        }
        schemaFiles = files
    }

    public func plan() -> (fixtures: [Fixture], problems: [FixtureProblem]) {
        var fixtures: [Fixture] = []
        var problems: [FixtureProblem] = []
        for contract in set.contracts.sorted(by: { $0.id < $1.id }) {
            let endpoint = FixtureEndpoint.description(
                contract, relativeFile: relativePath(contract), set: set, identifiers: identifiers, references: { self.schemaFiles[$0]?.references ?? [] }
            ).json
            for testCase in contract.cases {
                switch fixture(contract, testCase, endpoint: endpoint) {
                case .success(let fixture): fixtures.append(fixture)
                case .failure(let problem): problems.append(problem)
                }
            }
        }
        return (fixtures, problems)
    }

    /// Each problem as a compiler-style diagnostic: the contract file, the line and column where
    /// the case starts, and the case's pointer (`/cases/1`), so editors and CI annotate it.
    public func diagnostics(for problems: [FixtureProblem]) -> [Diagnostic] {
        problems.map { problem in
            let contract = set.contracts.first { $0.id == problem.contractID && $0.file == problem.file }
            let pointer = contract?.cases.first { $0.name == problem.caseName }?.pointer ?? .root
            let document = contract.map(relativePath).flatMap { set.documents[$0] }
            // A message may quote the contract's own text (a pattern), which may hold what a
            // terminal acts on: escaped as every console line is.
            return .error(
                ShownText.oneLine("\(problem.contractID)/\(problem.caseName): \(problem.message)"), file: problem.file,
                location: document?.nearestLocation(of: pointer), pointer: pointer)
        }
    }

    /// The fixture format this planner writes: 2 carries the endpoint's request description.
    public static let formatVersion = 2

    private func fixture(_ contract: Contract, _ testCase: ContractCase, endpoint: JSONValue) -> Result<Fixture, FixtureProblem> {
        func problem(_ message: String) -> Result<Fixture, FixtureProblem> {
            .failure(FixtureProblem(file: contract.file, contractID: contract.id, caseName: testCase.name, message: message))
        }
        guard Self.isSafeComponent(contract.id), Self.isSafeComponent(testCase.name) else {
            return problem("the contract id and case name become a file path and must not contain '/', '\\\\' or start with '.'")
        }
        let request = FixtureRequest.json(contract, testCase)
        let response: JSONValue
        switch FixtureResponse.json(contract, testCase, catalog: catalog, documents: relativeDocuments, identifiers: identifiers, relativeFile: relativePath(contract)) {
        case .success(let value): response = value
        case .failure(let message): return problem(message.text)
        }
        let document: JSONValue = .object(JSONObject([
            JSONObject.Member(key: "format", value: "contract-fixture"),
            JSONObject.Member(key: "version", value: .number(JSONNumber(Self.formatVersion))),
            JSONObject.Member(key: "contract", value: .string(contract.id)),
            JSONObject.Member(key: "case", value: .string(testCase.name)),
            // Relative to the contracts folder: the bytes must not depend on how the folder was
            // spelled (`contracts`, `./contracts`, `../../contracts`) or where the command ran.
            JSONObject.Member(key: "source", value: .string(relativePath(contract))),
            // What any request to the endpoint must be; `request` is what this case sends.
            JSONObject.Member(key: "endpoint", value: endpoint),
            JSONObject.Member(key: "request", value: request),
            JSONObject.Member(key: "response", value: response),
        ]))
        let bytes = Array((CanonicalJSONWriter(style: .pretty).string(document) + "\n").utf8)
        return .success(Fixture(
            path: "\(contract.id)/\(testCase.name).json", bytes: bytes, contractID: contract.id, caseName: testCase.name,
            source: relativePath(contract), shownSource: contract.file, sourceHash: sourceHash(contract, testCase, endpoint: endpoint)))
    }

    /// A path component that stays inside the output folder.
    static func isSafeComponent(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\") && !name.contains("\0")
    }

    private var relativeDocuments: [String: JSONDocument] { self.set.documents }

    private func relativePath(_ contract: Contract) -> String {
        set.relativePaths[contract.file] ?? contract.file
    }

    /// Hash of the fixture format, the endpoint (with its request description, which bundles the
    /// schema files it reaches), the case, and every schema file reachable from the case's `$ref`s.
    private func sourceHash(_ contract: Contract, _ testCase: ContractCase, endpoint description: JSONValue) -> String {
        var hasher = SHA256()
        let writer = CanonicalJSONWriter(style: .compact)
        hasher.update("format \(Self.formatVersion)")
        hasher.update(writer.string(description))
        let file = relativePath(contract)
        guard let document = set.documents[file]?.value else { return hasher.hexDigest() }
        var endpoint = document.objectValue ?? JSONObject()
        endpoint["cases"] = nil
        hasher.update(writer.string(.object(endpoint)))
        let caseValue = document[pointer: testCase.pointer] ?? .null
        hasher.update(writer.string(caseValue))
        var seen: Set<String> = [file]
        var queue = Self.referencedFiles(in: caseValue, from: file, identifiers: identifiers)
        var reached: [String] = []
        while let next = queue.popLast() {
            guard seen.insert(next).inserted, set.documents[next] != nil else { continue }
            reached.append(next)
            queue += schemaFiles[next]?.references ?? []
        }
        for next in reached.sorted() {
            hasher.update(next)
            hasher.update(schemaFiles[next]?.digest ?? "")
        }
        return hasher.hexDigest()
    }

    /// The files named by `$ref`s in `value`: by path from `file`'s folder, or by an absolute
    /// `$id` (written as such, or a path under the `$id` in force), as the synthesizer reads them.
    static func referencedFiles(in value: JSONValue, from file: String, identifiers: [String: String], base: String? = nil) -> [String] {
        switch value {
        case .object(let object):
            var base = base
            if let id = object["$id"]?.stringValue, !id.hasPrefix("#") { base = BodySynthesizer.absolute(id, against: base) ?? base }
            var files: [String] = []
            if let reference = object["$ref"]?.stringValue {
                let path = String(reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                if !path.isEmpty {
                    if let uri = BodySynthesizer.absolute(path, against: base), let target = identifiers[uri] {
                        files.append(target)
                    } else if let target = RelativePath.resolve(path, from: RelativePath.folder(of: file)) {
                        files.append(target)
                    }
                }
            }
            return files + object.members.flatMap { referencedFiles(in: $0.value, from: file, identifiers: identifiers, base: base) }
        case .array(let elements):
            return elements.flatMap { referencedFiles(in: $0, from: file, identifiers: identifiers, base: base) }
        default:
            return []
        }
    }
}
