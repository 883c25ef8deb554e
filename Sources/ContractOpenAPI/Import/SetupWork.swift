import Synchronization

/// The items the setup planning tried to make, counted while a test imports a document, so the
/// test can check how the work grows as a count, never with a clock (a busy machine makes times
/// say nothing). Nothing is counted unless a test sets ``current``.
final class SetupWork: Sendable {
    /// The counter the planning in this task adds to; nil outside such a test.
    @TaskLocal static var current: SetupWork?

    private let count = Atomic<Int>(0)

    /// Every attempt to make an item, made or not, over every case.
    var attempts: Int { count.load(ordering: .relaxed) }

    func addAttempt() {
        count.add(1, ordering: .relaxed)
    }
}
