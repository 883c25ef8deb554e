import ContractJSON

/// One entry of a document's `paths`: the path key as written, its path item read where it points,
/// and the operations it holds.
struct DocumentPath {
    struct Operation {
        /// As the path item keys it: `get`, `trace`…
        let method: String
        let object: JSONObject
        /// Where the operation is read: for an operation given by `$ref`, where that points.
        let pointer: JSONPointer
    }

    /// `/pets/{petId}`, `/files/{id}#shared_link`, `/v1/files?beta=true`.
    let key: String
    /// `/paths/<key>`.
    let pointer: JSONPointer
    let item: JSONObject
    /// Where the path item is read: for a path item given by `$ref`, where that points.
    let itemPointer: JSONPointer
    let operations: [Operation]

    /// The methods a path item may hold, in the order they are read. 3.2's `query` and
    /// `additionalOperations` are not among them: the import reads 3.2 as 3.1.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The path a request goes to: the key without its fragment (`#shared_link`, which tells apart
    /// descriptions of one path and is never sent), then without its query (`?beta=true`, which the
    /// endpoint sends with every request), given back apart.
    static func requestPath(ofKey key: String) -> (path: Substring, query: Substring?) {
        let sent = key.firstIndex(of: "#").map { key[..<$0] } ?? key[...]
        guard let question = sent.firstIndex(of: "?") else { return (sent, nil) }
        return (sent[..<question], sent[sent.index(after: question)...])
    }
}

extension OpenAPIDocument {
    /// Every path of `paths` whose path item can be read, in the document's order, with its
    /// operations in ``DocumentPath/methods``' order. Path items and operations given by `$ref`
    /// (an operation's is not in the specification, but Redocly's split documents write it) are
    /// read where they point; one that points to nothing is left out, as the reference's warning
    /// already says. The one walk of operations: the import's and the list of
    /// ``DocumentOperations``, so the two never disagree about what a document holds.
    func paths() -> [DocumentPath] {
        (root["paths"]?.objectValue ?? JSONObject()).members.compactMap { member in
            let pointer = JSONPointer(tokens: ["paths", member.key])
            guard let (item, itemPointer) = resolved(member.value, at: pointer) else { return nil }
            let operations = DocumentPath.methods.compactMap { method -> DocumentPath.Operation? in
                guard let value = item[method], let (operation, at) = resolved(value, at: itemPointer.appending(method)) else { return nil }
                return DocumentPath.Operation(method: method, object: operation, pointer: at)
            }
            return DocumentPath(key: member.key, pointer: pointer, item: item, itemPointer: itemPointer, operations: operations)
        }
    }
}
