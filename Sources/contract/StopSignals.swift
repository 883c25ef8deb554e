import ContractFiles
import Dispatch
import Foundation

/// A cancelled CI job sends SIGTERM (a person, SIGINT): the command then removes the files it
/// was writing (reports, a baseline, an ignore file; ``OutputFile``), so no partial file is left
/// beside them, and ends by the same signal, so that a
/// shell or CI runner sees what it sent (a `for` loop in bash stops on Ctrl-C as it should).
enum StopSignals {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func removePartialOutputsOnStop() {
        for number in [SIGINT, SIGTERM] {
            // The default action would end the process before the handler runs.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                OutputFile.removePartialFiles()
                // Delivered to this very thread (dispatch threads block signals), so the default
                // action ends the process before `raise` returns.
                signal(number, SIG_DFL)
                var only = sigset_t()
                sigemptyset(&only)
                sigaddset(&only, number)
                pthread_sigmask(SIG_UNBLOCK, &only, nil)
                raise(number)
                _exit(128 + number)  // only if the signal could not end the process
            }
            source.resume()
            sources.append(source)
        }
    }
}
