import Dispatch

/// Work started on another thread while this one does its own, its result taken once: coverage
/// reads the usage files and verify's reports while the contracts load (the three are about
/// equal halves of a large run, and a CI machine has cores to spare).
final class Background<Value: Sendable>: @unchecked Sendable {
    private let work: @Sendable () -> Value
    private let group = DispatchGroup()
    // Written once on the worker before `leave`, read after `wait`: the group orders the two.
    private var value: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        self.work = work
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async {
            self.value = work()
            self.group.leave()
        }
    }

    /// The work's result, waiting for it.
    func result() -> Value {
        group.wait()
        return value ?? work()
    }
}
