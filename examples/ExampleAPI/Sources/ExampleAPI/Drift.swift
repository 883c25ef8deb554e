/// The ways `--drift` makes the server disagree with its contracts. Each one is a mistake real
/// servers make after a refactor, so that `contract verify` has something realistic to find.
struct Drift: OptionSet, Sendable {
    let rawValue: Int

    /// Product bodies are encoded with a snake_case key strategy, so `createdAt` goes out as
    /// `created_at` (the other keys are single words or already snake_case, so only it changes).
    static let renamedField = Drift(rawValue: 1 << 0)
    /// `price` goes out as a formatted string, `"1.50"`, instead of the number `1.5`.
    static let priceAsString = Drift(rawValue: 1 << 1)
    /// `201 Created` comes without its `Location` header.
    static let missingLocation = Drift(rawValue: 1 << 2)
    /// `DELETE` answers `200 OK` with the deleted product instead of an empty `204 No Content`.
    static let deleteReturnsOK = Drift(rawValue: 1 << 3)

    static let none: Drift = []
    static let all: Drift = [.renamedField, .priceAsString, .missingLocation, .deleteReturnsOK]

    /// `EXAMPLE_API_DRIFT=1` (or `true`/`yes`) turns every drift on, for launchers that can set
    /// the environment but not the command line.
    static func fromEnvironment(_ environment: [String: String]) -> Drift {
        switch environment["EXAMPLE_API_DRIFT"]?.lowercased() {
        case "1", "true", "yes": .all
        default: .none
        }
    }
}
