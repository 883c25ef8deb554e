import ContractModel
import Foundation
import Testing

@testable import ContractVerifier

/// `contract verify`'s arguments checked by the library itself: every refusal the command makes,
/// with its exact message, before anything is loaded or sent.
struct VerifyArgumentsTests {
    func refusal(_ change: (inout VerifyArguments) -> Void) -> String? {
        var arguments = VerifyArguments(baseURL: "http://127.0.0.1:8080")
        change(&arguments)
        do {
            _ = try arguments.options(environment: [:])
            _ = try arguments.reportRequests()
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: [
        "http://127.0.0.1:8080", "https://staging.example.com/v2", "HTTP://EXAMPLE.COM", "http://[::1]:8080/api",
        "https://user:p%40ss@example.com", "http://example.com:", "http://bücher.example/", "http://example.com/a%20b/",
    ])
    func baseURLsThatAreAccepted(_ url: String) {
        #expect(refusal { $0.baseURL = url } == nil)
    }

    @Test(arguments: [
        ("http://exa mple.com", "--base-url 'http://exa mple.com' is not a URL the verifier can use: it has a space (in a path, write %20)"),
        ("http://example.com\u{1}/", "--base-url 'http://example.com\\u{1}/' is not a URL the verifier can use: it has a control character"),
        ("http://", "--base-url 'http://' is not a URL the verifier can use: it has no host (expected scheme://host[:port][/path])"),
        ("http:///path", "--base-url 'http:///path' is not a URL the verifier can use: it has no host (expected scheme://host[:port][/path])"),
        ("http://:8080", "--base-url 'http://:8080' is not a URL the verifier can use: it has no host (expected scheme://host[:port][/path])"),
        ("http://example.com:99999", "--base-url 'http://example.com:99999' is not a URL the verifier can use: its port '99999' is not a number from 1 to 65535"),
        ("http://example.com:0", "--base-url 'http://example.com:0' is not a URL the verifier can use: its port '0' is not a number from 1 to 65535"),
        ("http://example.com:80a", "--base-url 'http://example.com:80a' is not a URL the verifier can use: its port '80a' is not a number from 1 to 65535"),
        ("http://exa<mple.com", "--base-url 'http://exa<mple.com' is not a URL the verifier can use: a host name cannot have '<'"),
        ("http://[::1/", "--base-url 'http://[::1/' is not a URL the verifier can use: its IPv6 address has no closing ']'"),
        ("http://example.com/v2?key=1",
            "--base-url 'http://example.com/v2?key=1' is not a URL the verifier can use: it has a query or a fragment, and the contracts' paths are appended to it (give query values in the contracts)"),
        ("ftp://example.com", "--base-url must be an http:// or https:// URL, found 'ftp://example.com'"),
        ("example.com", "--base-url must be an http:// or https:// URL, found 'example.com'"),
        ("", "--base-url is empty; give the server's URL, e.g. http://127.0.0.1:8080"),
    ])
    func baseURLsThatAreRefused(_ url: String, _ message: String) {
        #expect(refusal { $0.baseURL = url } == message)
    }

    /// The user information of a URL is a credential: whatever is wrong, it is never shown.
    @Test(arguments: ["http://admin:hunter2@:8080", "http://admin:hunter2@exa mple.com", "ftp://admin:hunter2@example.com", "http://admin:hunter2@h:0"])
    func aRefusedURLNeverShowsItsPassword(_ url: String) throws {
        let message = try #require(refusal { $0.baseURL = url })
        #expect(!message.contains("hunter2") && !message.contains("admin"), "\(message)")
        #expect(message.contains("***@"))
    }

    @Test func rangesAreErrorsNotClamped() {
        #expect(refusal { $0.concurrency = 0 } == "--concurrency must be at least 1, found 0")
        #expect(refusal { $0.writeConcurrency = 0 } == "--write-concurrency must be at least 1, found 0")
        #expect(refusal { $0.retries = -1 } == "--retries must not be negative, found -1")
        #expect(refusal { $0.maxRedirects = -2 } == "--max-redirects must not be negative, found -2")
        #expect(refusal { $0.timeout = 0 } == "--timeout must be a number of seconds above 0, found 0.0")
        #expect(refusal { $0.connectTimeout = .infinity } == "--connect-timeout must be a number of seconds above 0, found inf")
        #expect(refusal { $0.timeout = .nan } == "--timeout must be a number of seconds above 0, found nan")
        #expect(refusal { $0.timeout = 0.0001 } == nil, "rounded up to a millisecond, never to none")
    }

    @Test func secondsBecomeWholeMilliseconds() throws {
        var arguments = VerifyArguments(baseURL: "http://127.0.0.1:8080")
        arguments.timeout = 2.5
        arguments.connectTimeout = 0.0001
        let options = try arguments.options(environment: [:])
        #expect(options.timeout == .milliseconds(2500))
        #expect(options.connectTimeout == .milliseconds(1))
        #expect(options.http.timeout == .milliseconds(2500), "the transfers get what the options say")
    }

    @Test func theCAFileMustBeReadable() throws {
        #expect(refusal { $0.caCertificatePath = "/nonexistent/ca.pem" } == "--cacert '/nonexistent/ca.pem' is not a readable file")
        #expect(refusal { $0.caCertificatePath = NSTemporaryDirectory() } == "--cacert '\(NSTemporaryDirectory())' is not a readable file")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem")
        try "not checked here".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(refusal { $0.caCertificatePath = file.path } == nil)
    }

    @Test func shards() throws {
        #expect(refusal { $0.shard = "3/2" } == "--shard must be 'i/n' with 1 <= i <= n, found '3/2'")
        #expect(refusal { $0.shard = "x" } == "--shard must be 'i/n' with 1 <= i <= n, found 'x'")
        var arguments = VerifyArguments(baseURL: "http://127.0.0.1:8080")
        arguments.shard = "2/4"
        #expect(try arguments.options(environment: [:]).selection.shard == Shard(index: 2, count: 4))
    }

    @Test func headersAreParsedAndTheirValuesNeverShown() throws {
        var arguments = VerifyArguments(baseURL: "http://127.0.0.1:8080")
        arguments.headers = ["X-Api-Key:  ${env:KEY} ", "Accept: application/json"]
        let headers = try arguments.options(environment: [:]).extraHeaders
        #expect(headers.map(\.name) == ["X-Api-Key", "Accept"])
        #expect(headers.first?.value?.environmentVariables == ["KEY"])

        #expect(refusal { $0.headers = ["s3cret-token"] }
            == "--header must be 'Name: value'; one has no ':' after a name (its text is not shown, as it may hold a secret)")
        #expect(refusal { $0.headers = ["Bad Name: s3cret"] }
            == "--header 'Bad Name': a header name cannot have ' ' (only letters, digits and !#$%&'*+-.^_`|~)")
        #expect(refusal { $0.headers = ["X-Id: ${capture:id}"] }
            == "--header 'X-Id': a header given here may use ${env:NAME}, not ${capture:…}, which only a case's setup steps define")
        #expect(refusal { $0.headers = ["X-Token: ${env:}"] }?.hasPrefix("--header 'X-Token': ") == true)
        let injected = refusal { $0.headers = ["X-Token: s3cret\r\nX-Admin: yes"] }
        #expect(injected
            == "--header 'X-Token': its value has a line break or another control character, which no header value may have (the value is not shown, as it may be a secret)")
    }

    @Test func reports() throws {
        let folder = FileManager.default.temporaryDirectory.path
        #expect(refusal { $0.reports = ["xml=r.xml"] } == "--report must be 'json=PATH', 'junit=PATH', 'markdown=PATH' or 'html=PATH', found 'xml=r.xml'")
        #expect(refusal { $0.reports = ["json="] } == "--report json= needs a file path")
        #expect(refusal { $0.reports = ["json=/nonexistent/folder/r.json"] } == "--report json: the folder '/nonexistent/folder' does not exist")
        #expect(refusal { $0.reports = ["junit=\(folder)"] } == "--report junit: '\(folder)' is a folder; give the path of a file to write")
        #expect(refusal { $0.reports = ["json=\(folder)/r.out", "junit=\(folder)/./r.out"] }
            == "--report: '\(folder)/./r.out' is given more than once; each report needs its own file")
        var arguments = VerifyArguments(baseURL: "http://127.0.0.1:8080")
        arguments.reports = ["json=\(folder)/r.json", "markdown=\(folder)/r.md"]
        #expect(try arguments.reportRequests() == [ReportRequest(kind: .json, path: "\(folder)/r.json"), ReportRequest(kind: .markdown, path: "\(folder)/r.md")])
    }

    /// A library caller that skips the arguments gets the same refusals from the plan: nothing is
    /// clamped later.
    @Test func thePlanRefusesInvalidOptions() {
        var options = VerifyOptions(baseURL: "http://127.0.0.1:1")
        options.environment = ["TOKEN": "t"]
        options.concurrency = 0
        let error = #expect(throws: DiagnosticsError.self) { try VerifyPlan(Fixtures.tree, options: options) }
        #expect(error?.description == "error: --concurrency must be at least 1, found 0")
        options.concurrency = 1
        options.selection.shard = Shard(parsing: "1/2")
        options.selection.shard?.index = 5
        let shard = #expect(throws: DiagnosticsError.self) { try VerifyPlan(Fixtures.tree, options: options) }
        #expect(shard?.diagnostics.map(\.message) == ["--shard must be 'i/n' with 1 <= i <= n, found '5/2'"])
        options.selection.shard = nil
        options.baseURL = "http://exa mple.com"
        #expect(throws: DiagnosticsError.self) { try VerifyPlan(Fixtures.tree, options: options) }
    }
}
