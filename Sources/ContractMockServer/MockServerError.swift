/// What a mock server could not do, with a ``code`` to tell the reasons apart.
public struct MockServerError: Error, Sendable, CustomStringConvertible {
    /// Which reason, without its values: compare with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// The server has no fixtures at all.
        public static let noFixtures = Code(name: "noFixtures")
        /// No fixture has the contract id named; the message names the nearest.
        public static let unknownContract = Code(name: "unknownContract")
        /// The contract has no case of the name given; the message names the nearest.
        public static let unknownCase = Code(name: "unknownCase")
        /// A fault out of its bounds (a status outside 200 to 599, a delay over an hour).
        public static let invalidFault = Code(name: "invalidFault")
        /// A control API call that is not JSON, or whose members are wrong.
        public static let invalidControlCall = Code(name: "invalidControlCall")
        /// A fixture file cannot be read.
        public static let invalidFixture = Code(name: "invalidFixture")
        /// The server could not listen (the port is taken, the host is not this machine's).
        public static let cannotListen = Code(name: "cannotListen")

        public var description: String { name }
    }

    public let code: Code
    public let description: String

    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
