/// A strict RFC 8259 parser that keeps numbers exact, members in order and, on request, the
/// position of every value and key.
///
/// It never crashes or hangs on any input: nesting is limited (``maxDepth``), every byte
/// sequence is checked as UTF-8, and the first problem is thrown as a ``JSONSyntaxError``
/// naming the line, the column, what was expected and what was found.
public struct JSONParser: Sendable {
    /// Deeper documents are rejected rather than risking the stack; 512 is far beyond real API data.
    public var maxDepth: Int
    /// Record where every value and key starts (``JSONDocument/location(of:)``), and which keys
    /// repeat. A document of 2 GiB or more is read without either (``JSONLocations/fits(_:)``).
    public var tracksLocations: Bool

    /// Keep one copy of each small value the document repeats (``JSONValueSharing``): far less
    /// memory for repetitive documents such as large contracts, for some time spent hashing.
    public var sharesValues: Bool

    /// Keep the text in the document's `source`. False keeps only where its lines end
    /// (``SourceText/init(lineIndexOf:)``): every location resolves the same, and the text is
    /// freed once the caller lets go of it (the load stage, where it was a large contract's
    /// size again).
    public var keepsText: Bool

    public init(maxDepth: Int = 512, tracksLocations: Bool = true, sharesValues: Bool = false, keepsText: Bool = true) {
        self.maxDepth = maxDepth
        self.tracksLocations = tracksLocations
        self.sharesValues = sharesValues
        self.keepsText = keepsText
    }

    public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
        // Offsets are kept in 32 bits, and entries' indices below a flag bit: a document of
        // 2 GiB or more is read without locations (nor repeated keys, which are placed by them).
        var sink = JSONTreeSink(tracksLocations: tracksLocations && JSONLocations.fits(bytes.count), sharesValues: sharesValues)
        try read(bytes, into: &sink)
        let source = tracksLocations && !keepsText ? SourceText(lineIndexOf: bytes) : SourceText(bytes, indexLines: tracksLocations)
        return document(&sink, source: source)
    }

    /// Parses a text the caller has no more use for, as ``parse(_:)`` with ``keepsText`` false,
    /// giving its pages back to the system as the parse reads past them (``TextRelease``), so a
    /// large document's text is not held whole beside its tree; `bytes` is empty afterwards.
    /// Locations, repeated keys and errors are placed as ``parse(_:)`` places them: the line index
    /// is made before the parse.
    public func parse(taking bytes: inout [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
        defer { bytes = [] }
        let usual = JSONParser(maxDepth: maxDepth, tracksLocations: tracksLocations, sharesValues: sharesValues, keepsText: false)
        guard tracksLocations, JSONLocations.fits(bytes.count) else { return try usual.parse(bytes) }
        let source = SourceText(lineIndexOf: bytes)
        // Where the line index declined the text and keeps it instead (many non-ASCII bytes), the
        // text is read as usual: its pages are still wanted.
        guard source.bytes.isEmpty else { return try usual.parse(bytes) }
        var sink = JSONTreeSink(tracksLocations: true, sharesValues: sharesValues)
        // A mutable view makes the array's storage this function's own (copied first if shared):
        // no one else sees the pages given back.
        let failure: PendingError? = bytes.withUnsafeMutableBufferPointer { buffer in
            sink.release = TextRelease(buffer)
            return grammarFailure(UnsafeBufferPointer(buffer), into: &sink)
        }
        if let failure { throw JSONSyntaxError(message: failure.message, location: source.location(ofOffset: failure.offset)) }
        return document(&sink, source: source)
    }

    /// Parses a text the caller has no more use for, keeping neither the text nor where its values
    /// start: `placeSource` reads it again and places them when one is first asked for (a
    /// diagnostic), so a clean document costs its tree alone. The pages of `bytes` are given back
    /// as the parse reads past them (``TextRelease``); `bytes` is empty afterwards. Repeated keys
    /// are counted, not placed (``JSONDocument/unplacedDuplicateKeys``). A syntax error is placed
    /// in the text read again; where that cannot be had, at the start, saying so.
    ///
    /// - Parameter stream: told of the root object's members and of each element of its array
    ///   ``JSONElementStream/streamedKey`` as each is finished; the document keeps what it returns
    ///   in the element's place, so a large array's elements need not all be whole at once.
    public func parse(
        taking bytes: inout [UInt8], placesLater placeSource: any JSONPlaceSource, streaming stream: (any JSONElementStream)? = nil
    ) throws(JSONSyntaxError) -> JSONDocument {
        defer { bytes = [] }
        var sink = JSONTreeSink(tracksLocations: false, sharesValues: sharesValues)
        sink.stream = stream
        let failure: PendingError? = bytes.withUnsafeMutableBufferPointer { buffer in
            sink.release = TextRelease(buffer)
            return grammarFailure(UnsafeBufferPointer(buffer), into: &sink)
        }
        if let failure {
            guard let text = placeSource.text() else {
                throw JSONSyntaxError(
                    message: failure.message + " (the file changed while it was read, so its line is not known)",
                    location: SourceLocation(line: 1, column: 1, offset: 0))
            }
            throw JSONSyntaxError(message: failure.message, location: SourceText(text, indexLines: false).location(ofOffset: failure.offset))
        }
        let (value, _) = sink.finish()
        return JSONDocument(value: value, placesLater: placeSource, unplacedDuplicateKeys: sink.repeatedKeys)
    }

    /// In place: a copy of the sink would copy its tables when it finishes.
    private func document(_ sink: inout JSONTreeSink, source: SourceText) -> JSONDocument {
        let (value, locations) = sink.finish()
        let duplicates = sink.duplicates.map {
            JSONDocument.DuplicateKey(
                key: $0.pointer.tokens.last ?? "", pointer: $0.pointer,
                location: source.location(ofOffset: $0.offset), firstLocation: source.location(ofOffset: $0.firstOffset))
        }
        return JSONDocument(value: value, source: source, locations: locations, duplicateKeys: duplicates)
    }

    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONDocument {
        try parse(Array(text.utf8))
    }

    /// Runs the grammar over `bytes` into `sink`; the one place a syntax error gets its location.
    @inlinable package func read<Sink: JSONSink>(_ bytes: [UInt8], into sink: inout Sink) throws(JSONSyntaxError) {
        let failure: PendingError? = bytes.withUnsafeBufferPointer { buffer in grammarFailure(buffer, into: &sink) }
        if let failure {
            throw JSONSyntaxError(message: failure.message, location: SourceText(bytes, indexLines: false).location(ofOffset: failure.offset))
        }
    }

    /// Runs the grammar over `buffer` into `sink`: the first problem, not yet placed.
    @inlinable func grammarFailure<Sink: JSONSink>(_ buffer: UnsafeBufferPointer<UInt8>, into sink: inout Sink) -> PendingError? {
        var grammar = JSONGrammar(bytes: buffer, maxDepth: maxDepth)
        do throws(PendingError) {
            try grammar.parseDocument(into: &sink)
            return nil
        } catch {
            return error
        }
    }
}

/// Takes a document's root object as it is parsed (``JSONParser/parse(taking:placesLater:streaming:)``):
/// each root member once it is read whole, and each element of one root array as it is finished,
/// in document order. A member that holds the streamed array is told once that array is done,
/// with the elements kept.
public protocol JSONElementStream: AnyObject {
    /// The key of the root member whose array is streamed.
    var streamedKey: String { get }
    /// A member of the root object, whole.
    func member(_ key: String, _ value: JSONValue)
    /// An element of the streamed array, whole, at `index`, starting at byte `offset` of the
    /// text: what the document keeps in its place.
    func element(_ value: JSONValue, at index: Int, offset: Int) -> JSONValue
}
