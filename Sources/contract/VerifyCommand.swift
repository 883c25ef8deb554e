import ArgumentParser
import ContractModel
import ContractVerifier
import Foundation

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Run every contract against a live server and report where they disagree.",
        discussion: """
            Loads and checks the contracts first: invalid contracts stop the run before any request is sent.
            Values of ${env:NAME} placeholders (in contracts and in --header) come from the environment and never \
            appear in any output; nor do values of credential headers given with --header (Authorization, Cookie, \
            X-Api-Key…).

            Colours and the progress line (--color auto) appear only on a terminal, and not when NO_COLOR is set \
            or TERM is 'dumb'.

            Exit codes:
              0  every case passed (with --baseline: every finding is known)
              1  at least one case drifted or got no complete response (with --baseline: a new finding;
                 with --fail-on any: any finding)
              2  invalid contracts, arguments or baseline; nothing was sent
              3  no request reached a server (DNS failure, connection refused, TLS failure), whatever the baseline
            """
    )

    @Option(help: "The server to verify, e.g. http://127.0.0.1:8080 or https://staging.example.com/v2.")
    var baseURL: String

    @OptionGroup var contracts: ContractsDirectory

    @Option(name: .customLong("id"), help: "Run only contracts whose id (or 'id/case') matches this glob; repeatable.")
    var ids: [String] = []

    @Option(name: .customLong("tag"), help: "Run only cases tagged so (on the case or its contract); repeatable.")
    var tags: [String] = []

    @Option(help: "Run one deterministic part of the cases, 'i/n' (for example 2/4 in a CI matrix).")
    var shard: String?

    @Option(help: "Requests in flight at once.")
    var concurrency = 8

    @Option(help: "Cases that change state (a POST, PUT, PATCH or DELETE among their requests) in flight at once; by default as many as --concurrency. 1 suits a server that cannot take concurrent writes (SQLite).")
    var writeConcurrency: Int?

    @Option(help: "Seconds a whole request may take.")
    var timeout: Double = 30

    @Option(help: "Seconds to establish a connection.")
    var connectTimeout: Double = 10

    @Option(help: "Extra attempts of a request (at most 100) after a transport error, and after an answer of --retry-status.")
    var retries = 0

    @Option(help: ArgumentHelp(
        "Send a setup step or a case's request again (within --retries) when it is answered with this status and expects another: 408, 429 or 503, by which a server says it did not act on it; after its Retry-After (up to 10 s) or a short pause. Repeatable. Teardown steps are asked again after 429 or 503 without it.",
        valueName: "status"))
    var retryStatus: [Int] = []

    @Option(help: "Follow up to this many redirects (default 0: a redirect is checked like any response). Another origin gets only Accept, Accept-Language, Content-Language and Content-Type.")
    var maxRedirects = 0

    @Flag(help: "Do not verify TLS certificates.")
    var insecure = false

    @Option(help: "Trust the CA certificates in this PEM file.")
    var cacert: String?

    @Option(name: .customLong("header"), help: "Send this header with every request, 'Name: value'; the value may hold ${env:NAME}; repeatable.")
    var headers: [String] = []

    @OptionGroup var reports: ReportOptions<FileReporter.Kind>

    @Flag(help: "The cases share no state: run a case that changes state beside cases on the same resources (by default it waits for them).")
    var independentCases = false

    @Flag(help: "Treat 'format' in schemas as an annotation only (the default asserts it).")
    var noFormatAssertion = false

    @Option(help: "Findings to count as known: a file 'contract baseline' writes from a JSON report.")
    var baseline: String?

    @Option(help: "What fails the run (exit 1): 'new' findings, those the baseline does not know (the default; without a baseline every finding is new), or 'any'.")
    var failOn = FailOn.new

    @OptionGroup var console: ConsoleOptions

    func run() async throws {
        // A stopped run must not leave the partial report files behind.
        if !reports.reports.isEmpty { StopSignals.removePartialOutputsOnStop() }
        let environment = ProcessInfo.processInfo.environment
        let terminal = RunConsole(console, environment: environment)
        let result = await VerifyRun.run(arguments, environment: environment, reporters: [terminal.reporter])
        terminal.output.flush()
        try result.exit(command: "verify")
    }

    private var arguments: VerifyArguments {
        var arguments = VerifyArguments(baseURL: baseURL)
        arguments.directory = contracts.directory
        arguments.ids = ids
        arguments.tags = tags
        arguments.shard = shard
        arguments.concurrency = concurrency
        arguments.writeConcurrency = writeConcurrency
        arguments.timeout = timeout
        arguments.connectTimeout = connectTimeout
        arguments.retries = retries
        arguments.retryStatuses = retryStatus
        arguments.maxRedirects = maxRedirects
        arguments.insecure = insecure
        arguments.caCertificatePath = cacert
        arguments.headers = headers
        arguments.reports = reports.reports
        arguments.independentCases = independentCases
        arguments.baselinePath = baseline
        arguments.failOn = failOn
        arguments.assertsFormats = !noFormatAssertion
        arguments.userAgent = "contract/\(ContractCommand.configuration.version)"
        return arguments
    }
}
