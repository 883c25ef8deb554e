/// A request's path parameters: placeholder names to the values that fill them, read and written
/// as the `[String: TemplateString]` they replace (a subscript by name, `(key, value)` elements,
/// `keys`, `values`, `removeValue(forKey:)`, a dictionary literal), kept as an array in the order
/// written. Nearly every request has none or one, and a one-entry `Dictionary` is a 152-byte hash
/// table per case, twice this array: on a contract of thousands of cases that was megabytes of the
/// load stage's peak.
///
/// Names are found by `==` alone, as a dictionary finds them (canonical equivalence: `K` and the
/// Kelvin sign are one name), never by `<`, which Swift's strings do not always order consistently
/// with `==`. Two sets of parameters are equal, and hash alike, when they hold equal values for
/// equal names, in whatever order.
public struct PathParameters: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (key: String, value: TemplateString)

    private struct Entry: Sendable {
        let key: String
        var value: TemplateString
    }

    private var entries: [Entry]

    public init() {
        entries = []
    }

    /// The same parameters as `dictionary`, in its order.
    public init(_ dictionary: [String: TemplateString]) {
        entries = dictionary.map { Entry(key: $0.key, value: $0.value) }
    }

    /// A name written twice keeps its last value (a dictionary literal would stop the program).
    public init(dictionaryLiteral elements: (String, TemplateString)...) {
        entries = []
        for (key, value) in elements { self[key] = value }
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Element { (entries[position].key, entries[position].value) }

    /// The value for `name`, nil when there is none; setting nil removes it.
    public subscript(name: String) -> TemplateString? {
        get { entries.first { $0.key == name }?.value }
        set {
            let index = entries.firstIndex { $0.key == name }
            switch (newValue, index) {
            case (let value?, let index?): entries[index].value = value
            case (let value?, nil): entries.append(Entry(key: name, value: value))
            case (nil, let index?): entries.remove(at: index)
            case (nil, nil): break
            }
        }
    }

    /// Removes `name`'s value and returns it, as a dictionary's method does.
    @discardableResult
    public mutating func removeValue(forKey name: String) -> TemplateString? {
        guard let index = entries.firstIndex(where: { $0.key == name }) else { return nil }
        return entries.remove(at: index).value
    }

    /// The names, in the order written.
    public var keys: [String] { entries.map(\.key) }
    /// The values, in their names' order.
    public var values: [TemplateString] { entries.map(\.value) }
    /// As a dictionary, for code that wants one.
    public var dictionary: [String: TemplateString] {
        Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    public var description: String { dictionary.description }

    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.entries.count == rhs.entries.count && lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Each entry hashed on its own and the hashes summed: the same for any order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        var sum = 0
        for entry in entries {
            var one = Hasher()
            one.combine(entry.key)
            one.combine(entry.value)
            sum &+= one.finalize()
        }
        hasher.combine(sum)
    }
}
