/// The values substituted for `${env:…}` placeholders. Every text the verifier shows passes
/// through ``redact(_:)``, so a secret that a server echoes back is hidden too.
public struct Secrets: Sendable {
    public static let mask = "***"
    private let values: [String]

    public init(_ values: some Sequence<String>) {
        // Longest first, so a secret that contains another is masked whole.
        self.values = Set(values.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
    }

    public func redact(_ text: String) -> String {
        var text = text
        for value in values where text.contains(value) {
            text = text.replacing(value, with: Self.mask)
        }
        return text
    }

    public var isEmpty: Bool { values.isEmpty }
}
