#if canImport(Glibc)
import Glibc
#endif

/// Gives the pages of a document's text back to the system as the parse reads past them
/// (``JSONParser/parse(taking:)``). A large contract's text was held whole beside its growing tree
/// until the parse ended: for a 22 MB contract of varied cases, a third of the load stage's peak.
///
/// Nothing reads a byte again once the parse is ``margin`` past it: a value's bytes are read
/// before it is finished, the grammar never looks back, the text of a container remembered for
/// sharing is at most ``JSONValueSharing/containerLengths`` long (and so began after the margin),
/// and remembered texts are copies (``JSONValueSharing``). The pages belong to the caller's own
/// array, made unique before the parse and emptied after it.
///
/// Linux only (`MADV_DONTNEED`, after which a page reads as zeros); elsewhere it does nothing.
struct TextRelease {
    private let base: UnsafeMutableRawPointer
    /// The first byte not given back yet (an offset into the text).
    private var released: Int
    /// The offset at which a release is next tried.
    private(set) var next: Int

    /// Bytes kept behind the parse: twice the longest container text the sharing table reads.
    static let margin = 2 * JSONValueSharing.containerLengths.upperBound
    /// Pages are given back a megabyte at a time: a system call per megabyte of text.
    static let step = 1 << 20

    /// Nil where pages cannot be given back, or for a text too small to be worth it.
    init?(_ text: UnsafeMutableBufferPointer<UInt8>) {
        #if os(Linux)
        guard let base = text.baseAddress, text.count > 2 * Self.step else { return nil }
        self.base = UnsafeMutableRawPointer(base)
        released = 0
        next = Self.step
        #else
        return nil
        #endif
    }

    /// The parse has reached `offset`: every whole page before `offset - margin` not given back
    /// yet is.
    mutating func pass(_ offset: Int) {
        next = offset + Self.step
        #if os(Linux)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0 else { return }
        let address = Int(bitPattern: base)
        // Whole pages only: the first may begin before the text (the array's header).
        let start = (address + released + page - 1) / page * page
        let end = (address + offset - Self.margin) / page * page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        if madvise(pointer, end - start, Int32(MADV_DONTNEED)) == 0 { released = end - address }
        #endif
    }
}
