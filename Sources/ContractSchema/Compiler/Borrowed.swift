/// A reference held without reference counting, for the payloads of ``Keyword``: the compiled
/// schema (``JSONSchema``) keeps every node and keyword object alive for as long as it exists,
/// so validation can read them at +0 instead of retaining and releasing each one it applies.
struct Borrowed<Object: AnyObject>: @unchecked Sendable {
    private let reference: Unmanaged<Object>

    init(_ object: Object) {
        reference = Unmanaged.passUnretained(object)
    }

    /// The object, for code off the hot path (compilation, cycle checks).
    var object: Object { reference.takeUnretainedValue() }

    /// Runs `body` with the object borrowed: no retain, no release.
    @inline(__always) func with<Result>(_ body: (Object) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }
}
