import Foundation
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `contract serve` as a user runs it: the binary on a copy of the bundled contracts, its URL read
/// from its first line, called with curl and with `URLSession`, edited while it runs, stopped by
/// SIGTERM.
struct ServeCommandTests {
    /// A running `contract serve` with its output in files, read while it runs.
    final class Serving {
        let folder: URL
        let process: ChildProcess
        let base: String
        let outPath: String
        let errPath: String

        init(arguments: [String] = [], environment: [String: String]? = nil) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: SharedData.packageRoot.appendingPathComponent("contracts"), to: folder.appendingPathComponent("contracts"))
            outPath = folder.appendingPathComponent("out.log").path
            errPath = folder.appendingPathComponent("err.log").path
            process = try ChildProcess(
                ContractBinary.url.path, ["serve", "--port", "0"] + arguments + ["contracts"], in: folder.path, environment: environment,
                stdout: .file(outPath), stderr: .file(errPath))
            // The first line is the URL; a hang guard only, far beyond a loaded machine's start.
            var first: String? = nil
            for _ in 0..<60_000 where first == nil && process.isRunning {
                first = (try? String(contentsOfFile: outPath, encoding: .utf8))?.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first.map(String.init)
                if first == nil { usleep(10_000) }
            }
            base = first ?? ""
        }

        deinit {
            if process.isRunning { process.signal(SIGKILL) }
            process.wait()
            try? FileManager.default.removeItem(at: folder)
        }

        var output: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
        var errors: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

        /// curl's status line, headers and body, as a user sees them.
        func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
            let result = try ChildProcess.run("/usr/bin/env", ["curl", "-s", "-w", "\n%{http_code}"] + arguments)
            let text = String(decoding: result.stdout, as: UTF8.self)
            let status = Int(text.split(separator: "\n").last ?? "") ?? 0
            return (status, String(text.dropLast(String(status).count + 1)))
        }

        func write(_ relative: String, _ text: String) throws {
            try Data(text.utf8).write(to: folder.appendingPathComponent("contracts/\(relative)"))
        }

        func read(_ relative: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent("contracts/\(relative)"), encoding: .utf8)
        }
    }

    @Test func itAnswersChecksAndTakesControlOverCurlAndURLSession() async throws {
        let serving = try Serving()
        try #require(serving.base.hasPrefix("http://127.0.0.1:"), "first line: \(serving.base); errors: \(serving.errors)")
        let base = serving.base

        let found = try serving.curl([base + "/api/products/1"])
        #expect(found.status == 200 && found.body.contains(#""name":"Pencil""#))

        // URLSession's own 60 s timeout is a clock a loaded machine can outrun (a CI run beside
        // busy loops timed one out); ten minutes only guards against a hang.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 900
        let session = URLSession(configuration: configuration)
        var missing = URLRequest(url: try #require(URL(string: base + "/api/products/1")))
        missing.setValue("case=missing", forHTTPHeaderField: "Prefer")
        let (_, missingResponse) = try await session.data(for: missing)
        #expect((missingResponse as? HTTPURLResponse)?.statusCode == 404)

        let bad = try serving.curl([
            "-X", "POST", base + "/api/products", "-H", "Content-Type: application/json", "-H", "Authorization: Bearer t", "-d", #"{"name": "Eraser", "price": "cheap", "currency": "KRW"}"#,
        ])
        #expect(bad.status == 400 && bad.body.contains(#""pointer":"/price""#) && bad.body.contains(#""keyword":"type""#), "\(bad.body)")

        let astray = try serving.curl([base + "/api/prodcts/1"])
        #expect(astray.status == 404 && astray.body.contains(#""nearest":"products.get/found""#), "\(astray.body)")

        // Faults through the control API, as a UI test's set-up in another process makes them.
        #expect(try serving.curl(["-X", "POST", base + "/__contract/inject", "-d", #"{"contract": "products.get", "delay": 0.3, "times": 1}"#]).status == 204)
        let clock = ContinuousClock()
        let start = clock.now
        let (_, delayed) = try await session.data(from: try #require(URL(string: base + "/api/products/1")))
        #expect((delayed as? HTTPURLResponse)?.statusCode == 200)
        #expect(clock.now - start >= .milliseconds(300), "a lower bound only: a busy machine makes it later, never earlier")
        #expect(try serving.curl(["-X", "POST", base + "/__contract/inject", "-d", #"{"contract": "health.get", "dropConnection": true}"#]).status == 204)
        await #expect(throws: URLError.self) { _ = try await session.data(from: try #require(URL(string: base + "/health"))) }
        let droppedByCurl = try ChildProcess.run("/usr/bin/env", ["curl", "-s", base + "/health"])
        #expect(droppedByCurl.status == 52, "curl: empty reply from server")

        let journal = try serving.curl([base + "/__contract/requests"])
        #expect(journal.status == 200)
        for expected in [#""path":"/api/products/1","#, #""status":400"#, #""mismatch":"#, #""faults":["delay(0.3 seconds)"]"#, #""faults":["dropConnection"]"#] {
            #expect(journal.body.contains(expected), "\(expected) in \(journal.body)")
        }
        #expect(!journal.body.contains("Bearer t"), "credentials are left out of the journal")

        // One line per request on the console, saying what answered or why not.
        let log = serving.output
        #expect(log.contains("200 GET /api/products/1 -> products.get/found"))
        #expect(log.contains("400 POST /api/products -> products.create/created breaks its contract: body /price"))
        #expect(log.contains("404 GET /api/prodcts/1: matches no fixture; nearest is products.get/found"), "\(log)")
        #expect(serving.errors.contains("serving 6 contracts (17 cases)"), "\(serving.errors)")

        serving.process.signal(SIGTERM)
        #expect(serving.process.wait() == 0, "a clean exit on SIGTERM")
    }

    @Test func anEditIsServedWithoutARestartAndABrokenOneKeepsTheLastGoodSet() async throws {
        let serving = try Serving()
        try #require(serving.base.hasPrefix("http://"), "errors: \(serving.errors)")
        let url = serving.base + "/api/products/1"
        #expect(try serving.curl([url]).body.contains(#""name":"Pencil""#))

        let contract = try serving.read("products/get.json")
        try serving.write("products/get.json", contract.replacingOccurrences(of: #""name": "Pencil""#, with: #""name": "Fountain pen""#))
        // Served once the folder has been still a moment; the bound only guards against a hang.
        var answer = ""
        for _ in 0..<3000 {
            answer = try serving.curl([url]).body
            if answer.contains("Fountain pen") { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(answer.contains(#""name":"Fountain pen""#), "\(answer)")
        #expect(serving.output.contains("reloaded contracts: 6 contracts, 17 cases"), "\(serving.output)")

        try serving.write("products/get.json", "{ \"id\": \"products.get\", ")
        var errors = ""
        for _ in 0..<3000 {
            errors = serving.errors
            if errors.contains("still serving the last good set") { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(errors.contains("products/get.json:1:"), "the diagnostic names the file and line: \(errors)")
        #expect(errors.contains("still serving the last good set"))
        #expect(try serving.curl([url]).body.contains(#""name":"Fountain pen""#), "the last good set answers")
        serving.process.signal(SIGTERM)
        #expect(serving.process.wait() == 0)
    }

    @Test func theJSONLogIsOneObjectPerLineWithoutSecrets() async throws {
        let serving = try Serving(arguments: ["--log", "json"])
        try #require(serving.base.hasPrefix("http://"), "errors: \(serving.errors)")
        _ = try serving.curl(["-H", "Authorization: Bearer log-s3cr3t", serving.base + "/api/products/1?api_key=q-s3cr3t"])
        _ = try serving.curl([serving.base + "/nowhere"])
        serving.process.signal(SIGTERM)
        #expect(serving.process.wait() == 0)
        let lines = serving.output.split(separator: "\n").dropFirst()
        #expect(lines.count == 2, "\(serving.output)")
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["time"] is String && object?["method"] as? String == "GET", "\(line)")
        }
        #expect(!serving.output.contains("s3cr3t"))
    }

    /// `--usage-dir` (or `CONTRACT_USAGE_DIR`) records each request answered for `contract
    /// coverage`: a file of the run's own, the test a UI test names in `Contract-Test`, nothing of
    /// the query or any other header.
    @Test func usageIsRecordedInTheFolderNamed() throws {
        let serving = try Serving(arguments: ["--usage-dir", "usage"])
        try #require(serving.base.hasPrefix("http://127.0.0.1:"), "first line: \(serving.base); errors: \(serving.errors)")
        let test = "Contract-Test: MarketUITests.CheckoutTests/testBuy"
        #expect(try serving.curl(["-H", test, "-H", "Authorization: Bearer usage-secret-token", serving.base + "/api/products/1"]).status == 200)
        #expect(try serving.curl(["-H", test, serving.base + "/api/prodcts/1?api_key=usage-secret-key"]).status == 404)
        #expect(try serving.curl([serving.base + "/__contract/requests"]).status == 200)
        serving.process.signal(SIGTERM)
        #expect(serving.process.wait() == 0)
        #expect(serving.errors.contains("recording usage in usage/usage-"), "\(serving.errors)")

        let folder = serving.folder.appendingPathComponent("usage")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        try #require(files.count == 1 && files[0].hasPrefix("usage-") && files[0].hasSuffix(".jsonl"), "\(files)")
        let text = try String(contentsOf: folder.appendingPathComponent(files[0]), encoding: .utf8)
        let lines = try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        try #require(lines.count == 3, "\(text)")
        #expect(lines[0]["format"] as? String == "contract-usage" && lines[0]["recorder"] as? String == "contract serve")
        #expect(lines[1]["outcome"] as? String == "answered" && lines[1]["contract"] as? String == "products.get" && lines[1]["case"] as? String == "found")
        #expect(lines[1]["test"] as? String == "MarketUITests.CheckoutTests/testBuy" && lines[1]["path"] as? String == "/api/products/1")
        #expect(lines[2]["outcome"] as? String == "unmatched" && lines[2]["nearest"] as? String == "products.get/found" && lines[2]["path"] as? String == "/api/prodcts/1")
        #expect(!text.contains("usage-secret") && !text.contains("Bearer"), "\(text)")

        var environment = ProcessInfo.processInfo.environment
        environment["CONTRACT_USAGE_DIR"] = "from-environment"
        let fromEnvironment = try Serving(environment: environment)
        try #require(fromEnvironment.base.hasPrefix("http://"), "\(fromEnvironment.errors)")
        #expect(try fromEnvironment.curl([fromEnvironment.base + "/health"]).status == 200)
        fromEnvironment.process.signal(SIGTERM)
        #expect(fromEnvironment.process.wait() == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: fromEnvironment.folder.appendingPathComponent("from-environment").path)
        #expect(written.count == 1)
    }

    /// A folder named where no file can be made stops the command: asked to record, it does not
    /// serve without recording.
    @Test func aUsageFolderThatCannotBeMadeExitsTwo() throws {
        let serving = try Serving()
        let refused = try ChildProcess.run(
            ContractBinary.url.path, ["serve", "--port", "0", "--usage-dir", "missing/usage", "contracts"], in: serving.folder.path)
        #expect(refused.status == 2)
        let errors = String(decoding: refused.stderr, as: UTF8.self)
        #expect(errors.contains("cannot record usage in 'missing/usage': cannot make the folder: No such file or directory") && errors.contains("nothing served"), "\(errors)")
        #expect(refused.stdout.isEmpty)
    }

    @Test func invalidContractsOrATakenPortExitTwo() async throws {
        let serving = try Serving()
        try #require(serving.base.hasPrefix("http://"))
        let port = try #require(serving.base.split(separator: ":").last.map(String.init))
        let taken = try ChildProcess.run(ContractBinary.url.path, ["serve", "--port", port, "contracts"], in: serving.folder.path)
        #expect(taken.status == 2)
        #expect(String(decoding: taken.stderr, as: UTF8.self).contains("cannot listen on 127.0.0.1:\(port)"))

        try serving.write("products/list.json", "[1, 2")
        let broken = try ChildProcess.run(ContractBinary.url.path, ["serve", "--port", "0", "contracts"], in: serving.folder.path)
        #expect(broken.status == 2)
        let errors = String(decoding: broken.stderr, as: UTF8.self)
        #expect(errors.contains("products/list.json:1:") && errors.contains("nothing served"), "\(errors)")
        #expect(broken.stdout.isEmpty, "no URL when nothing is served")

        let refused = try ChildProcess.run(ContractBinary.url.path, ["serve", "--port", "70000", "contracts"], in: serving.folder.path)
        #expect(refused.status == 2 && String(decoding: refused.stderr, as: UTF8.self).contains("--port must be from 0 to 65535"))
    }

    /// A script reads the URL off the first line and closes the pipe (`read -r url < <(contract
    /// serve …)`): the next log line's write failed, and `FileHandle.write` stopped the server.
    @Test func aReaderThatGoesAwayEndsTheLogNotTheServer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: SharedData.packageRoot.appendingPathComponent("contracts"), to: folder.appendingPathComponent("contracts"))
        let process = try ChildProcess(ContractBinary.url.path, ["serve", "--port", "0", "contracts"], in: folder.path, stdout: .capture)
        defer {
            if process.isRunning { process.signal(SIGKILL) }
            process.wait()
        }
        let base = process.readFirstLine()
        try #require(base.hasPrefix("http://127.0.0.1:"), "first line: \(base)")
        process.closeOutput()
        for _ in 0..<3 {
            let answer = try ChildProcess.run("/usr/bin/env", ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/health"])
            #expect(String(decoding: answer.stdout, as: UTF8.self) == "200")
        }
        #expect(process.isRunning)
        process.signal(SIGTERM)
        #expect(process.wait() == 0)
    }

    /// A value the server decodes from the query or path (`%1B]52;…`, which sets the terminal's
    /// clipboard) reached the console's log line raw: a web page can send that GET to loopback.
    @Test func theTextLogShowsNoControlCharacterAClientSent() throws {
        let serving = try Serving()
        try #require(serving.base.hasPrefix("http://"), "errors: \(serving.errors)")
        _ = try serving.curl([serving.base + "/api/products?page_no=%1B%5D52%3Bc%3BcHduZWQ%3D%07"])
        _ = try serving.curl([serving.base + "/api/products/%1B%5B1A%0APASS"])
        serving.process.signal(SIGTERM)
        #expect(serving.process.wait() == 0)
        let output = serving.output
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(output.debugDescription)")
        #expect(output.contains("\\u{1B}]52;c;cHduZWQ=\\u{7}") && output.contains("\\u{1B}[1A\\nPASS"), "\(output)")
        #expect(output.split(separator: "\n").count == 3, "the URL and one line per request")
    }
}
