/// What ``JSONGrammar`` reports while it reads a document: each value where it starts, and where
/// arrays and objects open and close. The grammar is generic over its sink and specialised for
/// each one, so there is one grammar and one set of messages, and neither sink pays for the other:
/// ``JSONTreeSink`` builds a ``JSONValue`` (and where each value is), ``JSONTapeSink`` a ``JSONTape``.
///
/// Events come in document order. A key comes right before its member's value; string and key
/// bytes are decoded UTF-8, valid only during the call. `inPlace` says they are the document's
/// own bytes, right after the opening quote at `offset` (the string holds no escape).
@usableFromInline
package protocol JSONSink {
    /// Whether ``reuse(_:at:)`` may take the container about to be read: the grammar then finds
    /// its end first.
    mutating func mayReuse() -> Bool
    /// Takes the array or object whose whole text is `text` whole, in place of the events for
    /// what is in it: true when the sink has read the same bytes before (they were valid then, and
    /// mean the same value now); false to have it read as usual.
    mutating func reuse(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool
    /// Returns a mark the grammar hands back to ``endArray(_:count:text:)``.
    mutating func beginArray(at offset: Int) -> Int
    /// `text` is the array's whole text, brackets included.
    mutating func endArray(_ mark: Int, count: Int, text: UnsafeBufferPointer<UInt8>)
    /// Returns a mark the grammar hands back to ``endObject(_:count:text:)``.
    mutating func beginObject(at offset: Int) -> Int
    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, inPlace: Bool)
    /// `count` is every member read, repeated keys included; `text` is the object's whole text.
    mutating func endObject(_ mark: Int, count: Int, text: UnsafeBufferPointer<UInt8>)
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, inPlace: Bool)
    mutating func number(_ number: JSONNumber, at offset: Int)
    mutating func bool(_ value: Bool, at offset: Int)
    mutating func null(at offset: Int)
}
