import Foundation
import PackagePlugin

/// `swift package contract <command> …`: runs the `contract` tool, built from source by SwiftPM
/// on first use, with the arguments as typed, in the package's directory (so `--out Tests/…/Fixtures`
/// and `../contracts` are relative to the package, wherever `swift package` was started). The
/// tool's output is passed through and its exit status becomes the plugin's, so a failing
/// `fixtures --check`, `lint` or `verify` makes `swift package` fail.
///
/// ```
/// swift package --allow-writing-to-package-directory contract fixtures --out Tests/AppTests/Fixtures ../contracts
/// swift package contract fixtures --check --out Tests/AppTests/Fixtures ../contracts
/// swift package contract lint ../contracts
/// swift package --allow-network-connections all contract verify --base-url http://127.0.0.1:8080 ../contracts
/// swift package --allow-writing-to-package-directory contract import openapi openapi.yaml --out contracts
/// ```
@main
struct ContractPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "contract")
        let status = try Self.run(tool.url, arguments: Self.toolArguments(arguments), in: context.package.directoryURL)
        guard status == 0 else {
            // The tool has said why; exiting with its status fails `swift package` (SwiftPM adds
            // one line naming the plugin and the status).
            exit(status)
        }
    }

    /// Runs `executable` with inherited standard input, output and error; its exit status, or
    /// 128 + the signal that ended it.
    static func run(_ executable: URL, arguments: [String], in directory: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        switch process.terminationReason {
        case .exit: return process.terminationStatus
        case .uncaughtSignal: return 128 + process.terminationStatus
        @unknown default: return 1
        }
    }

    /// The user's arguments without SwiftPM's own plugin options: SwiftPM reads those wherever
    /// they stand, also after the verb, and passes them on, but `contract` does not know them.
    static func toolArguments(_ arguments: [String]) -> [String] {
        let flags: Set<String> = ["--allow-writing-to-package-directory", "--disable-sandbox"]
        let options: Set<String> = ["--allow-writing-to-directory", "--allow-network-connections"]
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[index...]
                break
            }
            if flags.contains(argument) { continue }
            if options.contains(argument) {
                index = min(index + 1, arguments.endIndex)
                continue
            }
            if let name = argument.split(separator: "=", maxSplits: 1).first, options.contains(String(name)), argument.contains("=") {
                continue
            }
            result.append(argument)
        }
        return result
    }
}
