import ContractJSON
import ContractModel

/// One fixture file to be written: where (relative to the output folder), its exact bytes, and
/// what it was built from, for the manifest.
public struct Fixture: Sendable, Hashable {
    /// `products.get/found.json`.
    public var path: String
    public var bytes: [UInt8]
    public var contractID: String
    public var caseName: String
    /// The contract file, relative to the contracts folder: written in the fixture and the
    /// manifest, the same however the folder was named on the command line.
    public var source: String
    /// The contract file as the command line reached it (`../../contracts/health.json`), for messages.
    public var shownSource: String
    /// SHA-256 of everything the fixture was built from: the contract's endpoint, the case, and
    /// every schema file it reaches.
    public var sourceHash: String

    public var contentHash: String { SHA256.hex(bytes) }
}

/// Why a case got no fixture. Nothing is written for it, and the run fails.
public struct FixtureProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var contractID: String
    public var caseName: String
    public var message: String

    public var description: String { "\(file): \(contractID)/\(caseName): \(message)" }
}

/// Why the response half of one fixture could not be built.
struct FixtureMessage: Error, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }
}
