import ArgumentParser
import ContractHTTP
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

            Exit codes:
              0  every case passed
              1  at least one case drifted (or got no complete response)
              2  invalid contracts or arguments; nothing was sent
              3  no request reached a server (DNS failure, connection refused, TLS failure)
            """
    )

    @Option(help: "The server to verify, e.g. http://127.0.0.1:8080 or https://staging.example.com/v2.")
    var baseURL: String

    @Argument(help: "The contracts directory.")
    var directory = "contracts"

    @Option(name: .customLong("id"), help: "Run only contracts whose id (or 'id/case') matches this glob; repeatable.")
    var ids: [String] = []

    @Option(name: .customLong("tag"), help: "Run only cases tagged so (on the case or its contract); repeatable.")
    var tags: [String] = []

    @Option(help: "Run one deterministic part of the cases, 'i/n' (for example 2/4 in a CI matrix).")
    var shard: String?

    @Option(help: "Requests in flight at once.")
    var concurrency = 8

    @Option(help: "Seconds a whole request may take.")
    var timeout: Double = 30

    @Option(help: "Seconds to establish a connection.")
    var connectTimeout: Double = 10

    @Option(help: "Extra attempts after a transport error (never after a complete response).")
    var retries = 0

    @Option(help: "Follow up to this many redirects (default 0: a redirect is checked like any response).")
    var maxRedirects = 0

    @Flag(help: "Do not verify TLS certificates.")
    var insecure = false

    @Option(help: "Trust the CA certificates in this PEM file.")
    var cacert: String?

    @Option(name: .customLong("header"), help: "Send this header with every request, 'Name: value'; the value may hold ${env:NAME}; repeatable.")
    var headers: [String] = []

    @Option(name: .customLong("report"), help: "Also write a report, 'json=PATH', 'junit=PATH' or 'markdown=PATH'; repeatable.")
    var reports: [String] = []

    @Flag(help: "The cases share no state: run a case that changes state beside cases on the same resources (by default it waits for them).")
    var independentCases = false

    @Flag(help: "Treat 'format' in schemas as an annotation only (the default asserts it).")
    var noFormatAssertion = false

    @Option(help: "Colours and a progress line: auto (on a terminal), always or never.")
    var color: ColorChoice = .auto

    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    func run() async throws {
        let options = try makeOptions()
        let fileReporters = try makeFileReporters()
        if !fileReporters.isEmpty { StopSignals.removePartialReportsOnStop() }
        var set = try loadValidContracts(directory, consequence: "nothing was sent")
        set.dropContractDocuments()
        let style: ConsoleReporter.Style
        switch color {
        case .auto: style = isatty(STDOUT_FILENO) != 0 ? .terminal : .plain
        case .always: style = .terminal
        case .never: style = .plain
        }
        let output = ConsoleOutput(buffered: style == .plain)
        let console = ConsoleReporter(style: style, write: output.write)
        defer { output.flush() }
        let plan: VerifyPlan
        do {
            plan = try VerifyPlan(set, options: options)
        } catch {
            for problem in error.problems { printError("error: \(problem)") }
            printError("nothing was sent")
            throw ExitCode(2)
        }
        let report = await Verifier.run(plan, reporters: [console] + fileReporters)
        for problem in report.reporterErrors { printError("error: \(problem)") }
        if !report.reporterErrors.isEmpty { throw ExitCode(2) }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }

    private func makeOptions() throws -> VerifyOptions {
        guard let scheme = baseURL.split(separator: ":").first?.lowercased(), ["http", "https"].contains(scheme), baseURL.contains("://") else {
            throw ValidationError("--base-url must be an http:// or https:// URL, found '\(BaseURL.shown(baseURL))'")
        }
        var options = VerifyOptions(baseURL: baseURL)
        options.selection.ids = ids
        options.selection.tags = tags
        if let shard {
            guard let parsed = Shard(parsing: shard) else {
                throw ValidationError("--shard must be 'i/n' with 1 <= i <= n, found '\(shard)'")
            }
            options.selection.shard = parsed
        }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, found \(concurrency)") }
        guard retries >= 0 else { throw ValidationError("--retries must not be negative, found \(retries)") }
        guard maxRedirects >= 0 else { throw ValidationError("--max-redirects must not be negative, found \(maxRedirects)") }
        guard timeout > 0, connectTimeout > 0 else { throw ValidationError("--timeout and --connect-timeout must be positive") }
        options.concurrency = concurrency
        options.retries = retries
        options.http.timeout = .milliseconds(Int(timeout * 1000))
        options.http.connectTimeout = .milliseconds(Int(connectTimeout * 1000))
        options.http.maxRedirects = maxRedirects
        options.http.verifiesTLS = !insecure
        options.http.userAgent = "contract/\(ContractCommand.configuration.version)"
        if let cacert {
            guard FileManager.default.isReadableFile(atPath: cacert) else {
                throw ValidationError("--cacert '\(cacert)' is not a readable file")
            }
            options.http.caCertificatePath = cacert
        }
        options.extraHeaders = try headers.map { text in
            guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else {
                // The text is not shown: it may be a credential typed without its colon.
                throw ValidationError("--header must be 'Name: value'; one has no ':' after a name (its text is not shown, as it may hold a secret)")
            }
            let name = String(text[..<colon])
            let value: TemplateString
            do throws(TemplateSyntaxError) {
                value = try TemplateString(parsing: text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            } catch {
                throw ValidationError("--header '\(name)': \(error.message)")
            }
            guard value.capturedVariables.isEmpty else {
                throw ValidationError("--header '\(name)': a header given here may use ${env:NAME}, not ${capture:…}, which only a case's setup steps define")
            }
            return HeaderField(name: name, value: value)
        }
        options.assertsFormats = !noFormatAssertion
        options.independentCases = independentCases
        options.environment = ProcessInfo.processInfo.environment
        return options
    }

    private func makeFileReporters() throws -> [FileReporter] {
        let reporters = try reports.map { text in
            guard let equals = text.firstIndex(of: "="), let kind = FileReporter.Kind(rawValue: String(text[..<equals])) else {
                throw ValidationError("--report must be 'json=PATH', 'junit=PATH' or 'markdown=PATH', found '\(text)'")
            }
            let path = String(text[text.index(after: equals)...])
            guard !path.isEmpty else { throw ValidationError("--report \(kind.rawValue)= needs a file path") }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--report \(kind.rawValue): the folder '\(folder)' does not exist")
            }
            return FileReporter(kind: kind, path: path)
        }
        // Two reports written to one file would overwrite each other.
        var paths: Set<String> = []
        for reporter in reporters where !paths.insert(URL(fileURLWithPath: reporter.path).standardizedFileURL.path).inserted {
            throw ValidationError("--report: '\(reporter.path)' is given more than once; each report needs its own file")
        }
        return reporters
    }
}
