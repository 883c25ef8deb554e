import ContractJSON

/// Decodes a contract's cases as the parse finishes each, and leaves in the document only what
/// later stages look up by pointer there: each case's schemas (the reference and schema checks
/// find them by pointer). The rest of a case (its name, values, headers, example) is in the model,
/// and its part of the tree is let go at once, so a large contract's tree and its model are never
/// both whole: they were most of the load stage's peak.
///
/// Only for a document whose places are made from its file read again (``RereadPlaces``): its
/// diagnostics are placed in that parse's tree, not in the one kept. The endpoint's `request` must
/// come before `cases` (as every writer of contracts puts it); where it does not, nothing is
/// streamed and the cases are decoded from the whole tree as usual.
final class CaseStream: JSONElementStream {
    let streamedKey = "cases"
    private(set) var decoder: DocumentDecoder
    private var collector = CaseCollector(capacity: 0)
    /// The endpoint's path as cases are checked against it, once `request` is read.
    private var path: PathTemplate??
    /// False once an element came before `request`: the cases are then decoded afterwards.
    private var streams = true
    /// The file's size, to foresee how many cases there will be from how far the first went.
    private let size: Int
    /// The last element kept, shared by the next that keeps the same schemas (most do).
    private var lastKept: (request: JSONValue?, response: JSONValue?, value: JSONValue)?

    /// Fewer bytes than any case that decodes: `{"name":"a","response":{"status":200}}`.
    static let smallestCaseBytes = 38

    init(file: String, places: any JSONPlaceSource, size: Int) {
        decoder = DocumentDecoder(file: file, document: JSONDocument(value: .null, placesLater: places))
        self.size = size
    }

    func member(_ key: String, _ value: JSONValue) {
        if key == "request", path == nil { path = .some(DocumentDecoder.path(ofEndpoint: value)) }
    }

    func element(_ value: JSONValue, at index: Int, offset: Int) -> JSONValue {
        guard streams, let path else {
            streams = false
            return value
        }
        if collector.count >= 64, collector.count == collector.capacity, offset > 0 {
            // Cases of one contract are alike in size, so those read so far foretell the count,
            // and the array grows once to it rather than doubling past it (a doubling held the
            // old array and one of twice its size). Fourfold at a time until 4,096 cases were
            // read, so a few cases followed by megabytes of anything else get no room for
            // millions; never more than the rest of the file could hold.
            let foreseen = Int(Double(size) / Double(offset) * Double(collector.count) * 1.02) + 64
            let atMost = collector.count + (size - offset) / Self.smallestCaseBytes
            collector.reserve(min(foreseen, atMost, collector.count < 4_096 ? 4 * collector.count : .max))
        }
        collector.add(value, at: index, path: path, decoder: &decoder)
        return kept(value)
    }

    /// The decoder, now reading the document the parse made, and the cases, when every one was
    /// decoded as it was read; nil cases when they are to be decoded from the document.
    func finished(with document: JSONDocument) -> (decoder: DocumentDecoder, cases: CaseCollector?) {
        decoder.document = document
        return (decoder, streams && path != nil ? collector : nil)
    }

    /// What of a case the document keeps: its request's and response's `schema`, where written.
    private func kept(_ value: JSONValue) -> JSONValue {
        guard let object = value.objectValue else { return value }
        let request = object["request"]?.objectValue?["schema"]
        let response = object["response"]?.objectValue?["schema"]
        if let lastKept, lastKept.request == request, lastKept.response == response { return lastKept.value }
        var members: [JSONObject.Member] = []
        if let request { members.append(JSONObject.Member(key: "request", value: .object(JSONObject([JSONObject.Member(key: "schema", value: request)])))) }
        if let response { members.append(JSONObject.Member(key: "response", value: .object(JSONObject([JSONObject.Member(key: "schema", value: response)])))) }
        let kept = JSONValue.object(JSONObject(members))
        lastKept = (request, response, kept)
        return kept
    }
}
