/// Why `contract verify` cannot start with the options it was given. The message names the option
/// as the command line spells it (`--concurrency`), shows the offending value in single quotes
/// (user information of a URL and header values never: they may be secrets) and says what was
/// expected. Nothing has been loaded or sent when this is thrown.
public struct VerifyArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
