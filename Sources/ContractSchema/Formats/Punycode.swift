/// Punycode decoding (RFC 3492), to check that an `xn--` label is a real A-label.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128

    /// The Unicode scalars `encoded` (the part after `xn--`) stands for; nil when it is malformed.
    static func decode(_ encoded: [UInt8]) -> [UInt32]? {
        var output: [UInt32] = []
        var input = encoded[...]
        if let delimiter = encoded.lastIndex(of: UInt8(ascii: "-")) {
            for byte in encoded[..<delimiter] {
                guard byte < 0x80 else { return nil }
                output.append(UInt32(byte))
            }
            input = encoded[(delimiter + 1)...]
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        var index = input.startIndex
        while index < input.endIndex {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard index < input.endIndex, let digit = digitValue(input[index]) else { return nil }
                index += 1
                let (product, overflow1) = digit.multipliedReportingOverflow(by: weight)
                let (sum, overflow2) = i.addingReportingOverflow(product)
                guard !overflow1, !overflow2 else { return nil }
                i = sum
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (nextWeight, overflow3) = weight.multipliedReportingOverflow(by: base - t)
                guard !overflow3 else { return nil }
                weight = nextWeight
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n) else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        return output
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// The Punycode form of `scalars` (without `xn--`), to measure A-labels and to check that a
    /// decoded label re-encodes to itself.
    static func encode(_ scalars: [UInt32]) -> [UInt8]? {
        var output: [UInt8] = scalars.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < scalars.count {
            guard let m = scalars.filter({ Int($0) >= n }).min().map(Int.init) else { return nil }
            let (step, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow else { return nil }
            delta += step
            n = m
            for scalar in scalars {
                if Int(scalar) < n { delta += 1 }
                if Int(scalar) == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }

    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(value) + UInt8(ascii: "a") : UInt8(value - 26) + UInt8(ascii: "0")
    }
}
