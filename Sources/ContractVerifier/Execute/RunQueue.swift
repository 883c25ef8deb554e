import Foundation

/// Hands the plan's cases to the engines' threads in plan order, holding back a case that would
/// run beside another on the same resources while one of them changes state (see
/// ``ResourceAccess``). A held case does not stop the cases after it that touch other resources,
/// and no case overtakes an earlier held one it conflicts with, so cases on one resource run in
/// plan order. With a write limit, a case that changes state also waits while that many such cases
/// are in flight.
final class RunQueue: @unchecked Sendable {
    enum Pull {
        case start(Int)
        case notYet
        case end
    }

    private let lock = NSLock()
    private let access: [ResourceAccess]
    private let count: Int
    private let checksConflicts: Bool
    /// Cases that change state allowed in flight at once; nil: no limit of their own.
    private let writeLimit: Int?
    /// Whether `access`, `started` and `inFlight` are kept: conflicts or a write limit apply.
    private let tracks: Bool
    /// Called when a finished case may let a held one start.
    private let wake: @Sendable () -> Void
    /// The first position not started yet; every one before it has started.
    private var cursor = 0
    private var started: [Bool]
    private var inFlight: [Int] = []
    private var someoneWaits = false
    /// How far past a held case the queue looks for one that may start.
    private static let lookahead = 64

    /// - Parameters:
    ///   - count: cases in the plan.
    ///   - changesState: whether any case changes state.
    ///   - access: what the case at a position touches; asked only when some case changes state.
    ///   - independent: the cases share no state (told by the user): none is held back for another
    ///     on the same resources.
    ///   - writeLimit: cases that change state in flight at once, whatever they touch; nil: no limit.
    init(
        count: Int, changesState: Bool, access: (Int) -> ResourceAccess, independent: Bool, writeLimit: Int? = nil,
        wake: @escaping @Sendable () -> Void
    ) {
        self.count = count
        // A run that changes nothing cannot conflict: the common case costs no checks.
        checksConflicts = !independent && changesState
        self.writeLimit = changesState ? writeLimit : nil
        tracks = checksConflicts || self.writeLimit != nil
        self.access = tracks ? (0..<count).map(access) : []
        started = tracks ? Array(repeating: false, count: count) : []
        self.wake = wake
    }

    /// For tests: a queue over these accesses.
    convenience init(_ access: [ResourceAccess], independent: Bool, writeLimit: Int? = nil, wake: @escaping @Sendable () -> Void) {
        self.init(
            count: access.count, changesState: access.contains(where: \.changes), access: { access[$0] }, independent: independent,
            writeLimit: writeLimit, wake: wake)
    }

    func next() -> Pull {
        lock.withLock {
            guard cursor < count else { return .end }
            guard tracks else {
                defer { cursor += 1 }
                return .start(cursor)
            }
            let writesFull = writeLimit.map { limit in inFlight.count(where: { access[$0].changes }) >= limit } ?? false
            var held: [Int] = []
            var position = cursor
            while position < count && position < cursor + Self.lookahead {
                defer { position += 1 }
                guard !started[position] else { continue }
                let candidate = access[position]
                if (writesFull && candidate.changes)
                    || (checksConflicts
                        && (inFlight.contains(where: { access[$0].conflicts(with: candidate) })
                            || held.contains(where: { access[$0].conflicts(with: candidate) })))
                {
                    held.append(position)
                    continue
                }
                started[position] = true
                inFlight.append(position)
                while cursor < count && started[cursor] { cursor += 1 }
                return .start(position)
            }
            someoneWaits = true
            return .notYet
        }
    }

    /// The case at `position` has ended (its last request is done).
    func finished(_ position: Int) {
        guard tracks else { return }
        let wakes = lock.withLock {
            if let index = inFlight.firstIndex(of: position) { inFlight.remove(at: index) }
            defer { someoneWaits = false }
            return someoneWaits
        }
        if wakes { wake() }
    }
}
