import ContractHTTP
import ContractJSON
import ContractSchema
import Foundation

// ContractHTTP alone, for Benchmarks/VerifyBenchmark/run.sh: TOTAL GET requests with IN_FLIGHT
// at a time, no checks. Between the bare libcurl loop and `contract verify`, it shows what the
// wrapper costs and what the verifier adds.
// By default through `HTTPClient.stream` with one engine per core, the path `contract verify`
// takes; MODE=send uses IN_FLIGHT tasks awaiting `send` one request after another.
// SCHEMA=FILE also parses each body and validates it against that JSON Schema, and nothing else:
// the least any verifier with this validator must do per response, so its rate is the ceiling of
// `contract verify` on the same machine.
// STREAM=1 with SCHEMA checks each body in one pass instead (`StreamingValidator`, which
// `contract verify` uses for a schema that streams): the ceiling of verify's own work beyond it.
// Usage: [MODE=stream|send] [ENGINES=n] [SCHEMA=FILE [STREAM=1]] HTTPClientBenchmark URL TOTAL IN_FLIGHT; prints requests per second.
let arguments = CommandLine.arguments
guard arguments.count == 4, let total = Int(arguments[2]), let width = Int(arguments[3]), width > 0 else {
    FileHandle.standardError.write(Data("usage: HTTPClientBenchmark URL TOTAL IN_FLIGHT\n".utf8))
    exit(2)
}
let url = arguments[1]
let environment = ProcessInfo.processInfo.environment
let schema: JSONSchema? = environment["SCHEMA"].flatMap { $0.isEmpty ? nil : $0 }.map { path in
    do {
        let value = try JSONParser().parse(Array(FileManager.default.contents(atPath: path) ?? Data())).value
        return try JSONSchema(value, uri: URL(fileURLWithPath: path).absoluteString)
    } catch {
        FileHandle.standardError.write(Data("cannot use the schema \(path): \(error)\n".utf8))
        exit(2)
    }
}
let streaming: StreamingValidator? = environment["STREAM"] == "1" ? schema.map { schema in
    guard let streaming = schema.streamingValidator() else {
        FileHandle.standardError.write(Data("the schema does not stream: a keyword needs the whole value\n".utf8))
        exit(2)
    }
    return streaming
} : nil
/// True when the response is what the benchmark counts as a success.
@Sendable func accepted(_ outcome: Result<HTTPResponse, TransportError>) -> Bool {
    guard case .success(let response) = outcome else { return false }
    if let streaming { return streaming.accepts(response.body) }
    guard let schema else { return true }
    guard let tape = try? JSONParser().parseTape(response.body) else { return false }
    return schema.isValid(tape)
}
let client = HTTPClient(engines: Int(environment["ENGINES"] ?? "") ?? min(8, ProcessInfo.processInfo.activeProcessorCount))

/// Counts requests handed out and failures, from the engines' threads.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var started = 0
    private var failed = 0

    func take(upTo total: Int) -> Bool {
        lock.withLock {
            guard started < total else { return false }
            started += 1
            return true
        }
    }

    func fail() { lock.withLock { failed += 1 } }
    var failures: Int { lock.withLock { failed } }
}

let clock = ContinuousClock()
let start = clock.now
let failures: Int
if environment["MODE"] == "send" {
    failures = await withTaskGroup(of: Int.self) { group in
        for task in 0..<width {
            let count = total / width + (task < total % width ? 1 : 0)
            group.addTask {
                var failed = 0
                for _ in 0..<count {
                    if !accepted(await client.send(HTTPRequest(method: "GET", url: url))) { failed += 1 }
                }
                return failed
            }
        }
        var failed = 0
        for await count in group { failed += count }
        return failed
    }
} else {
    let tally = Tally()
    await client.stream(width: width) {
        guard tally.take(upTo: total) else { return nil }
        return (HTTPRequest(method: "GET", url: url), { outcome, _ in if !accepted(outcome) { tally.fail() } })
    }
    failures = tally.failures
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(Int(Double(total) / seconds))
if failures > 0 {
    FileHandle.standardError.write(Data("\(failures) requests failed\n".utf8))
    exit(1)
}
