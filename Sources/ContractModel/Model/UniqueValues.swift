/// The values of `${unique:NAME}` for one run of one case: each name gives 12 characters, a
/// lowercase letter then lowercase letters and digits (`k3v9q0x2m7ab`), which fit an id, a name,
/// a path segment or a file name; the same name gives the same value everywhere in the case (its
/// setup, request, expectations and teardown), and another run of the case, or another case, gives
/// another value. So an item a case creates never collides with one an earlier case or an earlier
/// night's run left on the server.
public struct UniqueValues: Sendable, Hashable {
    private let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// Values no earlier run has made: a random seed.
    public static func fresh() -> UniqueValues {
        var generator = SystemRandomNumberGenerator()
        return UniqueValues(seed: generator.next())
    }

    /// The values of the case at `position` of a run these are the run's values of: each case's
    /// its own, derived without asking the system for randomness once per case.
    public func forCase(_ position: Int) -> UniqueValues {
        UniqueValues(seed: seed ^ (UInt64(truncatingIfNeeded: position) &+ 1) &* 0x9e37_79b9_7f4a_7c15)
    }

    /// The same values every time, for what must be byte-stable (a fixture's request).
    public static let stable = UniqueValues(seed: 0)

    public static let length = 12

    public func value(for name: String) -> String {
        // FNV-1a over the name, mixed with the seed; each character from the next SplitMix64 output.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        var state = seed ^ hash
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let alphanumerics = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.length)
        for index in 0..<Self.length {
            state &+= 0x9e37_79b9_7f4a_7c15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
            mixed ^= mixed >> 31
            let alphabet = index == 0 ? letters : alphanumerics
            bytes.append(alphabet[Int(mixed % UInt64(alphabet.count))])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
