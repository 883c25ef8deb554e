import ContractVerifier
import Dispatch
import Foundation

/// A cancelled CI job sends SIGTERM (a person, SIGINT): the run then removes the report files it
/// was writing, so no partial file is left beside them, and ends by the same signal, so that a
/// shell or CI runner sees what it sent (a `for` loop in bash stops on Ctrl-C as it should).
enum StopSignals {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func removePartialReportsOnStop() {
        for number in [SIGINT, SIGTERM] {
            // The default action would end the process before the handler runs.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                FileReporter.removePartialFiles()
                signal(number, SIG_DFL)
                kill(getpid(), number)
                _exit(128 + number)  // only if the signal could not end the process
            }
            source.resume()
            sources.append(source)
        }
    }
}
