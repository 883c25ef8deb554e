import ContractHTTP
import Foundation

// ContractHTTP alone, for Benchmarks/VerifyBenchmark/run.sh: IN_FLIGHT tasks each sending GET
// requests one after another until TOTAL are done. Between the bare libcurl loop and
// `contract verify`, it shows what the wrapper costs and what the verifier adds.
// Usage: [ENGINES=n] HTTPClientBenchmark URL TOTAL IN_FLIGHT; prints requests per second.
let arguments = CommandLine.arguments
guard arguments.count == 4, let total = Int(arguments[2]), let width = Int(arguments[3]), width > 0 else {
    FileHandle.standardError.write(Data("usage: HTTPClientBenchmark URL TOTAL IN_FLIGHT\n".utf8))
    exit(2)
}
let url = arguments[1]
let client = HTTPClient(engines: Int(ProcessInfo.processInfo.environment["ENGINES"] ?? "") ?? 1)
let clock = ContinuousClock()
let start = clock.now
let failures = await withTaskGroup(of: Int.self) { group in
    for task in 0..<width {
        let count = total / width + (task < total % width ? 1 : 0)
        group.addTask {
            var failed = 0
            for _ in 0..<count {
                if case .failure = await client.send(HTTPRequest(method: "GET", url: url)) { failed += 1 }
            }
            return failed
        }
    }
    var failed = 0
    for await count in group { failed += count }
    return failed
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(Int(Double(total) / seconds))
if failures > 0 {
    FileHandle.standardError.write(Data("\(failures) requests failed\n".utf8))
    exit(1)
}
