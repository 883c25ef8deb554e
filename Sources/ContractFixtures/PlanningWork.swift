import Foundation

/// Work whose amount depends on the size of the tree, counted while a test plans fixtures, so the
/// test can check how it grows with the number of cases as a ratio of work, never with a clock
/// (a busy machine makes times say nothing). Nothing is counted unless a test sets ``current``.
final class PlanningWork: @unchecked Sendable {
    /// The counter the planning in this task adds to; nil outside such a test.
    @TaskLocal static var current: PlanningWork?

    private let lock = NSLock()
    private var scanned = 0
    private var steps = 0

    /// Documents of the tree looked through for identifiers (`$id`), one by one.
    var documentsScanned: Int { lock.withLock { scanned } }

    /// Schema steps the synthesizer took to build bodies, every attempt counted.
    var synthesisSteps: Int { lock.withLock { steps } }

    func add(documentsScanned count: Int) {
        lock.withLock { scanned += count }
    }

    func add(synthesisSteps count: Int) {
        lock.withLock { steps += count }
    }
}
