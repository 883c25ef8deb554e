import ContractVerifier
import Dispatch
import Foundation

/// A cancelled CI job sends SIGTERM (a person, SIGINT): the run then removes the report files it
/// was writing, so no partial file is left beside them, and exits as the signal would have made it.
enum StopSignals {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func removePartialReportsOnStop() {
        for number in [SIGINT, SIGTERM] {
            // The default action would end the process before the handler runs.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                FileReporter.removePartialFiles()
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}
