/// A value kept in an allocation of its own, so the struct holding it stays one word wide: for
/// the parts of the model most cases leave empty (a case's summary, tags, setup and teardown; a
/// request's body, schema and followed link). Held inline they were most of a case's 280 bytes,
/// and a contract of 100,000 cases holds them all in one array at once.
///
/// Compared and hashed by value, like the fields it replaces. Never mutated in place: a change
/// makes a new box, so copies of the model never see each other's changes.
struct OutOfLine<Value: Sendable & Hashable>: Sendable, Hashable {
    private final class Box: Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    private let box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    var value: Value { box.value }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.box === rhs.box || lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}

/// A value kept out of line while it holds anything: empty, no box is kept at all.
protocol RarelySet: Sendable, Hashable {
    init()
    var isEmpty: Bool { get }
}

extension OutOfLine where Value: RarelySet {
    /// `box` with `change` applied: a new box, or none when the change leaves the value empty
    /// (so `==` and hashing of the holder are those of its plain fields again).
    static func changing(_ box: Self?, _ change: (inout Value) -> Void) -> Self? {
        var value = box?.value ?? Value()
        change(&value)
        return value.isEmpty ? nil : Self(value)
    }
}
