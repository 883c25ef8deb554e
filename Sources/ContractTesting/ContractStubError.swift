import Foundation

/// What a stub could not do, with a ``code`` to tell the reasons apart and the names involved.
///
/// Thrown by the call that names a contract id or case name none of the stub's fixtures has
/// (`use(_:case:)`, `inject(_:for:)`), so a typo fails where it was written, with the nearest name,
/// rather than being ignored or failing at some later request. A request that no fixture matches
/// fails the running test with this error's description (unless the stub allows invalid
/// requests), and its load fails with a `URLError(.resourceUnavailable)`, as a server that is not
/// there would; that error carries this one (code ``Code/noMatchingFixture``) as its
/// `NSUnderlyingErrorKey`, and the stub keeps it (``ContractStub/unmatchedRequests``).
///
/// A struct with a ``Code`` rather than an enum, so a reason added later breaks no `switch`.
public struct ContractStubError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// Which reason, without its values: compare with `==` (`error.code == .unknownCase`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case noFixtures
            case unknownContract
            case unknownCase
            case noMatchingFixture
        }

        fileprivate let base: Base

        /// The stub has no fixtures at all.
        public static let noFixtures = Code(base: .noFixtures)
        /// No fixture has the contract id a call names (``ContractStubError/contract``).
        public static let unknownContract = Code(base: .unknownContract)
        /// The contract has no case of the name a call gives (``ContractStubError/caseName``).
        public static let unknownCase = Code(base: .unknownCase)
        /// No fixture matches a request (``ContractStubError/method``, ``ContractStubError/url``,
        /// ``ContractStubError/nearestFixture``).
        public static let noMatchingFixture = Code(base: .noMatchingFixture)

        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The contract id named: by the call, or of the nearest fixture for an unmatched request.
    public let contract: String?
    /// The case name named by the call, or the case chosen that no fixture has.
    public let caseName: String?
    /// The request's method, for ``Code/noMatchingFixture``.
    public let method: String?
    /// The request's URL, for ``Code/noMatchingFixture``.
    public let url: URL?
    /// The fixture that came nearest (`products.get/found`), for ``Code/noMatchingFixture``.
    public let nearestFixture: String?
    /// The whole explanation, as printed.
    public var description: String
    /// Why no fixture took the request, without its method, URL or a value of its query: what a
    /// usage record keeps (``UsageRecord/reason``).
    var usageReason: String?

    public var errorDescription: String? { description }

    init(
        _ code: Code, _ description: String, contract: String? = nil, caseName: String? = nil, method: String? = nil, url: URL? = nil,
        nearestFixture: String? = nil
    ) {
        self.code = code
        self.description = description
        self.contract = contract
        self.caseName = caseName
        self.method = method
        self.url = url
        self.nearestFixture = nearestFixture
    }

    /// Checks that `contract` (and `caseName`, when given) name fixtures of `fixtures`.
    /// - Parameter call: the call as written, to open the message with.
    static func check(contract: String, caseName: String? = nil, in fixtures: [StubFixture], call: String) throws(ContractStubError) {
        guard let (problem, message) = CaseNames.problem(contract: contract, caseName: caseName, in: fixtures.map(\.route), call: call, holder: "this stub")
        else { return }
        let code: Code =
            switch problem {
            case .noRoutes: .noFixtures
            case .unknownContract: .unknownContract
            case .unknownCase: .unknownCase
            }
        throw ContractStubError(code, message, contract: contract, caseName: caseName)
    }
}
