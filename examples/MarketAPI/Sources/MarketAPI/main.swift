import Foundation
import Hummingbird
import Logging

// MarketAPI [--host 127.0.0.1] [--port 0] [--drift]
// Port 0 (the default) takes a free port. Once listening, prints one line to standard output,
// `listening on http://HOST:PORT`, so that scripts and tests can read the port.
// MARKET_TOKEN is the bearer token writes need (default `dev-token`).
var host = "127.0.0.1"
var port = 0
var drift: Drift = ProcessInfo.processInfo.environment["MARKET_API_DRIFT"] == "1" ? .all : []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--host": host = arguments.popFirst() ?? host
    case "--port":
        guard let value = arguments.popFirst().flatMap(Int.init), (0...65_535).contains(value) else {
            FileHandle.standardError.write(Data("--port needs a number from 0 to 65535\n".utf8))
            exit(2)
        }
        port = value
    case "--drift": drift = .all
    default:
        FileHandle.standardError.write(Data("usage: MarketAPI [--host HOST] [--port N] [--drift]\n".utf8))
        exit(2)
    }
}

let settings = (host: host, port: port, drift: drift)
var logger = Logger(label: "market-api")
logger.logLevel = .warning
let router = Router()
let token = ProcessInfo.processInfo.environment["MARKET_TOKEN"] ?? "dev-token"
Routes(store: ProductStore(), rendering: Rendering(drift: settings.drift), token: token).register(on: router)
let app = Application(
    router: router,
    configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "MarketAPI"),
    onServerRunning: { channel in
        let bound = channel.localAddress?.port ?? settings.port
        // Unbuffered, so that a script reading a pipe sees the line at once.
        let line = "listening on http://\(settings.host):\(bound)\(settings.drift.isEmpty ? "" : " (drifting)")\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    },
    logger: logger
)
try await app.runService()
