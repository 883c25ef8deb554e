/// A request's path parameters: placeholder names to the values that fill them, read and written
/// like a dictionary, kept as an array sorted by name. Nearly every request has none or one, and a
/// one-entry `Dictionary` is a 152-byte block of hash table per case, twice this array's: on a
/// contract of thousands of cases that was megabytes of the load stage's peak. Sorted by name, two
/// sets of parameters are equal (and hash alike) exactly when the dictionaries were, whatever the
/// order they were written in.
public struct PathParameters: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public struct Element: Sendable, Hashable {
        public let key: String
        public var value: TemplateString
    }

    private var entries: [Element]

    public init() {
        entries = []
    }

    /// The same parameters as `dictionary`; as a literal, a repeated name keeps its last value.
    public init(_ dictionary: [String: TemplateString]) {
        entries = dictionary.map { Element(key: $0.key, value: $0.value) }.sorted { $0.key < $1.key }
    }

    public init(dictionaryLiteral elements: (String, TemplateString)...) {
        entries = []
        for (key, value) in elements { self[key] = value }
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Element { entries[position] }

    /// The value for `name`, nil when there is none; setting nil removes it.
    public subscript(name: String) -> TemplateString? {
        get {
            let index = insertionIndex(of: name)
            return index < entries.count && entries[index].key == name ? entries[index].value : nil
        }
        set {
            let index = insertionIndex(of: name)
            let present = index < entries.count && entries[index].key == name
            switch (newValue, present) {
            case (let value?, true): entries[index].value = value
            case (let value?, false): entries.insert(Element(key: name, value: value), at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// The names, in order.
    public var keys: [String] { entries.map(\.key) }
    /// The values, in their names' order.
    public var values: [TemplateString] { entries.map(\.value) }

    /// Where `name` is or would go: a binary search, though there are seldom more than three.
    private func insertionIndex(of name: String) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < name { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
