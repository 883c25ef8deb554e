import Foundation

/// Results as they finish, from any thread, for the verifier's task to take in batches.
///
/// Handing each result over on its own (an `AsyncStream` yield per case) woke the verifier's task
/// once per case: at tens of thousands of cases a second that wake-up cost more CPU than checking
/// the response. Here the task sleeps until the first result of a batch arrives, then lets a short
/// moment pass so that the results finishing meanwhile come along: one wake-up per batch, and a
/// result still reaches the reporters within a few milliseconds (the live progress line).
final class ResultCollector: @unchecked Sendable {
    private enum Step { case take([(Int, CaseResult)]), wait, gather }

    private let lock = NSLock()
    private var pending: [(Int, CaseResult)] = []
    private var waiter: CheckedContinuation<Void, Never>?
    private var finished = false

    /// How long the task lets results gather once the first one is in.
    private static var gathering: Duration { .milliseconds(2) }
    /// A batch this large is taken at once.
    private static var batch: Int { 256 }

    func add(_ index: Int, _ result: CaseResult) {
        let wake = lock.withLock {
            pending.append((index, result))
            defer { waiter = nil }
            return waiter
        }
        wake?.resume()
    }

    /// No more results will come.
    func finish() {
        let wake = lock.withLock {
            finished = true
            defer { waiter = nil }
            return waiter
        }
        wake?.resume()
    }

    /// The results finished since the last call, in any order; empty only once `finish` was called
    /// and everything was taken.
    func next() async -> [(Int, CaseResult)] {
        while true {
            let step: Step = lock.withLock {
                if finished || pending.count >= Self.batch {
                    defer { pending.removeAll(keepingCapacity: true) }
                    return .take(pending)
                }
                return pending.isEmpty ? .wait : .gather
            }
            switch step {
            case .take(let results):
                return results
            case .gather:
                try? await Task.sleep(for: Self.gathering)
                return lock.withLock {
                    defer { pending.removeAll(keepingCapacity: true) }
                    return pending
                }
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = lock.withLock {
                        guard pending.isEmpty, !finished else { return true }
                        waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }
}
