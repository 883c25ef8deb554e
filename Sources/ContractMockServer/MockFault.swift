/// What ``MockServer/inject(_:times:)`` makes of the answers: `.status(503)`, `.delay(.seconds(2))`,
/// `.undecodableBody`, `.dropConnection`: the faults of `ContractStub` that a real connection
/// can carry (a dropped connection stands for the stubs' `URLError`s, which a client then sees
/// for itself).
///
/// A struct over an internal enum, so a fault added later breaks no `switch`.
public struct MockFault: Hashable, Sendable, CustomStringConvertible {
    enum Base: Hashable, Sendable {
        case status(Int)
        case delay(Duration)
        case undecodableBody
        case dropConnection
    }

    let base: Base

    /// The fixture's answer with another status code (200 to 599: a 1xx is not an answer over HTTP).
    public static func status(_ code: Int) -> MockFault { MockFault(base: .status(code)) }
    /// The fixture's answer, after a pause.
    public static func delay(_ duration: Duration) -> MockFault { MockFault(base: .delay(duration)) }
    /// A body that is not valid JSON, to test decoding failures.
    public static let undecodableBody = MockFault(base: .undecodableBody)
    /// The connection is closed without an answer, as when a server crashes or a proxy gives up.
    public static let dropConnection = MockFault(base: .dropConnection)

    /// The longest delay a fault may ask for: an hour, far beyond any client's timeout.
    public static let longestDelay = Duration.seconds(3600)

    /// The status of a `.status` fault, else nil.
    public var statusCode: Int? {
        if case .status(let code) = base { code } else { nil }
    }

    /// The pause of a `.delay` fault, else nil.
    public var duration: Duration? {
        if case .delay(let duration) = base { duration } else { nil }
    }

    /// `status(503)`, `delay(2.0 seconds)`, `undecodableBody`, `dropConnection`.
    public var description: String {
        switch base {
        case .status(let code): "status(\(code))"
        case .delay(let duration): "delay(\(duration))"
        case .undecodableBody: "undecodableBody"
        case .dropConnection: "dropConnection"
        }
    }

    /// The body an `.undecodableBody` fault sends: JSON cut short.
    static let undecodableBytes = Array("{\"truncated\": ".utf8)
}
