import ContractJSON

/// What the last few values decoded to, for a decoder to reuse when a later case writes the same
/// value again. The loader's parser gives a repeated text one stored value
/// (``JSONValue/sharesStorage(with:)``), so a repeat is known by address at once, byte for byte,
/// without comparing the texts; cases of a large contract repeat their response headers and their
/// query, and each decoded its own copy of the same arrays.
struct RecentDecodings<Decoded> {
    private var entries: [(value: JSONValue, decoded: Decoded)] = []
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func decoded(for value: JSONValue) -> Decoded? {
        entries.first { $0.value.sharesStorage(with: value) }?.decoded
    }

    /// Members or elements of a value worth remembering: the parser shares no container whose
    /// text is over 4 KB, so a larger one can never be met again, and kept it would hold memory
    /// the streamed case let go (32 queries of 20,000 parameters held 50 MB).
    static var maxRemembered: Int { 128 }

    mutating func remember(_ decoded: Decoded, for value: JSONValue) {
        guard (value.objectValue?.count ?? value.arrayValue?.count ?? 0) <= Self.maxRemembered else { return }
        if entries.count == limit { entries.removeFirst() }
        entries.append((value, decoded))
    }
}

extension DocumentDecoder {
    /// `decode(field)`, or what it gave for the same stored value before. Only a decoding that
    /// reported nothing and used no placeholder that captures is kept: those depend on where the
    /// value is.
    mutating func reusing<Decoded>(
        _ recent: WritableKeyPath<DocumentDecoder, RecentDecodings<Decoded>>, _ field: Field,
        _ decode: (inout DocumentDecoder, Field) -> Decoded
    ) -> Decoded {
        if let known = self[keyPath: recent].decoded(for: field.value) { return known }
        let reported = diagnostics.count
        let uses = templateUses.count
        let decoded = decode(&self, field)
        if diagnostics.count == reported, templateUses.count == uses {
            self[keyPath: recent].remember(decoded, for: field.value)
        }
        return decoded
    }
}
