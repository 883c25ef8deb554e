import ContractJSON

extension TapeView {
    /// JSON equality of two values of the same tape (`1` equals `1.0`, members in any order),
    /// for `uniqueItems`: comparing in place builds no ``JSONValue``.
    func equal(_ left: Int, _ right: Int) -> Bool {
        let kind = kind(left)
        guard kind == self.kind(right) else { return false }
        switch kind {
        case .null:
            return true
        case .bool:
            return entries[left].flag == entries[right].flag
        case .number:
            if let a = scaled(left), let b = scaled(right), let order = JSONNumber.compareScaled(a, b) { return order == 0 }
            return number(left) == number(right)
        case .string:
            return Self.same(utf8(left), utf8(right))
        case .array:
            guard count(left) == count(right) else { return false }
            var a = left + 1
            var b = right + 1
            for _ in 0..<count(left) {
                guard equal(a, b) else { return false }
                a = end(a)
                b = end(b)
            }
            return true
        case .object:
            // The tape keeps every member of a repeated name; JSON equality, as a value, the last
            // (and `uniqueItems` over more than 32 items compares values).
            if hasRepeatedNames(left) || hasRepeatedNames(right) { return value(left) == value(right) }
            guard count(left) == count(right) else { return false }
            var key = left + 1
            for _ in 0..<count(left) {
                guard let other = member(right, named: utf8(key)), equal(key + 1, other) else { return false }
                key = end(key + 1)
            }
            return true
        }
    }

    /// Whether two members of `object` have the same name: pairwise for small objects, by a set
    /// of names for larger ones.
    func hasRepeatedNames(_ object: Int) -> Bool {
        let count = count(object)
        guard count > 1 else { return false }
        if count <= 16 {
            var earlier = object + 1
            for position in 0..<count - 1 {
                var later = end(earlier + 1)
                for _ in position + 1..<count {
                    if Self.same(utf8(earlier), utf8(later)) { return true }
                    later = end(later + 1)
                }
                earlier = end(earlier + 1)
            }
            return false
        }
        var names: Set<[UInt8]> = []
        var key = object + 1
        for _ in 0..<count {
            guard names.insert(Array(utf8(key))).inserted else { return true }
            key = end(key + 1)
        }
        return false
    }

    /// The value of the member of `object` whose name has these bytes.
    func member(_ object: Int, named name: UnsafeBufferPointer<UInt8>) -> Int? {
        var key = object + 1
        for _ in 0..<count(object) {
            if Self.same(utf8(key), name) { return key + 1 }
            key = end(key + 1)
        }
        return nil
    }

    /// The positions of the first two equal elements of `array`, compared in place pair by pair:
    /// `.some(nil)` when all differ, nil when the array is long enough that hashing
    /// (``Evaluator/firstDuplicate(_:)``) beats comparing every pair.
    func firstDuplicate(inArray array: Int) -> (Int, Int)?? {
        let count = count(array)
        guard count <= 32 else { return nil }
        var first = array + 1
        for i in 0..<count {
            var second = end(first)
            for j in (i + 1)..<count {
                if equal(first, second) { return .some((i, j)) }
                second = end(second)
            }
            first = end(first)
        }
        return .some(nil)
    }

    /// Byte equality, lengths first.
    @inline(__always) static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count where a[index] != b[index] { return false }
        return true
    }
}
