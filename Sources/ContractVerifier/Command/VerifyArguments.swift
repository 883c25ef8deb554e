import ContractModel
import Foundation

/// `contract verify`'s command line as typed, before any check: ``options(environment:)`` and
/// ``reportRequests()`` turn it into what the verifier runs, or say what is wrong with it. The
/// executable only declares the options; every check lives here, where a library caller and the
/// tests reach it.
public struct VerifyArguments: Sendable {
    public var baseURL: String
    /// The contracts directory.
    public var directory = "contracts"
    /// `--id` globs.
    public var ids: [String] = []
    /// `--tag`s.
    public var tags: [String] = []
    /// `--shard i/n`.
    public var shard: String?
    public var concurrency = 8
    /// `--write-concurrency N`: cases that change state in flight at once; nil: no limit of their own.
    public var writeConcurrency: Int?
    /// Seconds a whole request may take.
    public var timeout: Double = 30
    /// Seconds to establish a connection.
    public var connectTimeout: Double = 10
    public var retries = 0
    /// `--retry-status CODE`s.
    public var retryStatuses: [Int] = []
    public var maxRedirects = 0
    /// `--insecure`: TLS certificates are not verified.
    public var insecure = false
    /// `--cacert`: a PEM file of CA certificates to trust.
    public var caCertificatePath: String?
    /// `--header 'Name: value'`s.
    public var headers: [String] = []
    /// `--report kind=PATH`s.
    public var reports: [String] = []
    public var independentCases = false
    /// `--baseline FILE`: findings to count as known.
    public var baselinePath: String?
    /// `--fail-on new|any`.
    public var failOn = FailOn.new
    /// False with `--no-format-assertion`.
    public var assertsFormats = true
    /// Sent as `User-Agent`: `contract/0.1.0`.
    public var userAgent = "contract"

    public init(baseURL: String) {
        self.baseURL = baseURL
    }

    /// The options these arguments give, checked (``VerifyOptions/validate()``).
    /// - Parameter environment: where `${env:…}` values come from.
    public func options(environment: [String: String]) throws(DiagnosticsError) -> VerifyOptions {
        var options = VerifyOptions(baseURL: baseURL)
        options.selection.ids = ids
        options.selection.tags = tags
        if let shard {
            guard let parsed = Shard(parsing: shard) else {
                throw DiagnosticsError(argument: "--shard must be 'i/n' with 1 <= i <= n, found '\(shard)'")
            }
            options.selection.shard = parsed
        }
        options.concurrency = concurrency
        options.writeConcurrency = writeConcurrency
        options.retries = retries
        options.retryStatuses = Set(retryStatuses)
        options.timeout = try Self.duration(seconds: timeout, option: "--timeout")
        options.connectTimeout = try Self.duration(seconds: connectTimeout, option: "--connect-timeout")
        options.maxRedirects = maxRedirects
        options.verifiesTLS = !insecure
        options.caCertificatePath = caCertificatePath
        options.userAgent = userAgent
        var extraHeaders: [HeaderField] = []
        for header in headers { extraHeaders.append(try HeaderArgument.parse(header)) }
        options.extraHeaders = extraHeaders
        options.assertsFormats = assertsFormats
        options.independentCases = independentCases
        options.failOn = failOn
        if let baselinePath { options.baseline = try Self.baseline(at: baselinePath) }
        options.environment = environment
        try options.validate()
        return options
    }

    /// The report files asked for, checked (``ReportRequest/checked(_:workingDirectory:)``).
    public func reportRequests() throws(DiagnosticsError) -> [VerifyReportRequest] {
        try VerifyReportRequest.checked(reports)
    }

    /// The baseline file, read and checked whole: a baseline half read would make known drift new.
    private static func baseline(at path: String) throws(DiagnosticsError) -> Baseline {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw DiagnosticsError(argument: "--baseline '\(path)' is not a readable file (write one with 'contract baseline REPORT --out \(path)')")
        }
        // Read with a limit, every entry checked (``Baseline/read(path:)``).
        switch Baseline.read(path: path) {
        case .success(let baseline): return baseline
        case .failure(let error): throw DiagnosticsError([.argumentError("--baseline '\(path)' cannot be used:")] + error.diagnostics)
        }
    }

    /// Seconds as typed (`2.5`) as a duration of whole milliseconds, never rounded down to none.
    private static func duration(seconds: Double, option: String) throws(DiagnosticsError) -> Duration {
        // Beyond a billion seconds the milliseconds no longer fit where libcurl reads them.
        guard seconds.isFinite, seconds > 0, seconds <= 1_000_000_000 else {
            throw DiagnosticsError(argument: "\(option) must be a number of seconds above 0, found \(seconds)")
        }
        return .milliseconds(Int((seconds * 1000).rounded(.up)))
    }
}
