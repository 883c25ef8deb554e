import ContractJSON

/// The one reader and writer of the files that list entries named by fingerprint: verify's
/// baseline (`contract-verify-baseline`, its entries under `findings`) and diff's ignore file
/// (`contract-diff-ignore`, under `changes`). Both are
///
///     {"format": F, "version": 1, LIST: [
///         {one entry a line: string fields, a 'fingerprint' of 16 lowercase hex digits, an optional 'expires' YYYY-MM-DD},
///     ]}
///
/// so a change to one reads well in a pull request. Reading is strict: the file is bounded
/// before it is read (``Format/maxFileBytes``, ``Format/maxEntries``), every problem is a
/// diagnostic with the file, line, column and JSON Pointer, unknown and repeated keys are
/// refused, and any error makes the whole file unusable (a file read halfway would turn known
/// drift into new, or let a change through). The file is read as a ``TapeDocument``: the cost is
/// linear in the file, whatever it holds.
package enum FingerprintList {
    /// What one kind of file is called and holds.
    package struct Format: Sendable {
        /// `contract-verify-baseline`.
        package var name: String
        package var version = 1
        /// The key of the entries' array: `findings`.
        package var listKey: String
        /// Every key an entry may have, as messages list them; `fingerprint` and `expires` among them.
        package var entryKeys: [String]
        /// The keys an entry must have; `fingerprint` among them.
        package var requiredKeys: [String]
        /// A required key's message when it is absent, where `expected 'KEY'` says too little.
        package var missingMessages: [String: String] = [:]
        /// The file in messages: `a baseline`.
        package var fileName: String
        /// Why the entries are few, after their limit in a message: `a baseline lists the drift a team accepts for now`.
        package var purpose: String
        package var maxEntries: Int
        package var maxFileBytes: Int
        /// ``maxFileBytes`` as messages say it (`64 MiB`: `InputFile.describe(bytes:)`).
        package var shownMaxFileBytes: String

        package init(
            name: String, listKey: String, entryKeys: [String], requiredKeys: [String], missingMessages: [String: String] = [:], fileName: String,
            purpose: String, maxEntries: Int, maxFileBytes: Int, shownMaxFileBytes: String
        ) {
            self.name = name
            self.listKey = listKey
            self.entryKeys = entryKeys
            self.requiredKeys = requiredKeys
            self.missingMessages = missingMessages
            self.fileName = fileName
            self.purpose = purpose
            self.maxEntries = maxEntries
            self.maxFileBytes = maxFileBytes
            self.shownMaxFileBytes = shownMaxFileBytes
        }

        /// For a file refused by its size before it is read: `expected a baseline of at most 64 MiB (100,000 entries at most); this file is larger`.
        package var tooLargeMessage: String {
            "expected \(fileName) of at most \(shownMaxFileBytes) (\(ByteCount.grouped(maxEntries)) entries at most); this file is larger"
        }
    }

    /// One entry read: its fields, and where it is.
    package struct Entry: Sendable, Equatable {
        package var fields: [String: String]
        /// `/findings/3`.
        package var pointer: JSONPointer

        package subscript(key: String) -> String? { fields[key] }

        /// A required key's value: the reader returns only entries that have every one.
        package func required(_ key: String) -> String { fields[key] ?? "" }
    }

    /// A problem with an entry that only its file's type knows of (an ignore file's empty
    /// reason): the message, placed at `key`'s value, or at the entry when nil.
    package typealias EntryProblem = (key: String?, message: String)

    // MARK: Writing

    /// The file: one entry a line, in the order given, each entry's keys sorted.
    package static func text(_ entries: [[String: String]], format: Format) -> String {
        let body = entries.isEmpty ? "[]" : "[\n" + entries.map { "    " + line($0) }.joined(separator: ",\n") + "\n  ]"
        return "{\n  \"format\": \(quoted(format.name)),\n  \"version\": \(format.version),\n  \(quoted(format.listKey)): \(body)\n}\n"
    }

    /// One entry as its line in the file.
    package static func line(_ fields: [String: String]) -> String {
        CanonicalJSONWriter(style: .compact).string(.object(JSONObject(fields.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) })))
    }

    private static func quoted(_ text: String) -> String {
        CanonicalJSONWriter(style: .compact).string(.string(text))
    }

    // MARK: Reading

    /// Reads a file of `format`; `file` names it in diagnostics. `check` is asked about each
    /// entry that has every required key, for the problems only its type knows of.
    /// - Returns: every entry, in the file's order, or every problem (sorted by place; at most
    ///   ``TapeDocument/maxProblems``) when there is any.
    package static func read(
        _ bytes: [UInt8], file: String, format: Format, check: ([String: String]) -> [EntryProblem] = { _ in [] }
    ) -> Result<[Entry], DiagnosticsError> {
        guard bytes.count <= format.maxFileBytes else {
            return .failure(DiagnosticsError([.error(
                "expected \(format.fileName) of at most \(format.shownMaxFileBytes), found \(ByteCount.grouped(bytes.count)) bytes", file: file)]))
        }
        var document: TapeDocument
        switch TapeDocument.parse(bytes, file: file) {
        case .success(let parsed): document = parsed
        case .failure(let error): return .failure(error)
        }
        let entries = read(&document, format: format, check: check)
        guard let entries, !document.hasProblems else { return .failure(DiagnosticsError(document.problems.sorted())) }
        return .success(entries)
    }

    private static func read(_ document: inout TapeDocument, format: Format, check: ([String: String]) -> [EntryProblem]) -> [Entry]? {
        let root = 0
        let list = format.listKey
        guard document.kind(root) == .object else {
            document.problem("expected an object with 'format', 'version' and '\(list)'", at: .root, entry: root)
            return nil
        }
        let fileKeys = ["format", "version", list]
        var seenKeys: Set<String> = []
        for member in document.members(root) {
            let key = document.string(member.key)
            if !seenKeys.insert(key).inserted {
                document.problem("key '\(MessageText.oneLine(key))' is repeated", at: JSONPointer(tokens: [key]), entry: member.key)
            } else if !fileKeys.contains(key) {
                document.problem(
                    "unknown key '\(MessageText.oneLine(key))'; \(format.fileName) has \(fileKeys.joined(separator: ", "))", at: JSONPointer(tokens: [key]),
                    entry: member.value)
            }
        }
        let formatValue = document.member("format", of: root)
        if formatValue.map({ !document.equals($0, format.name) }) ?? true {
            document.problem("expected 'format': '\(format.name)'", at: JSONPointer(tokens: ["format"]), entry: formatValue ?? root)
        }
        let version = document.member("version", of: root)
        if version.map({ document.kind($0) != .number || document.number($0) != JSONNumber(format.version) }) ?? true {
            document.problem(
                "expected 'version': \(format.version) (this contract reads version \(format.version))", at: JSONPointer(tokens: ["version"]), entry: version ?? root)
        }
        let listPointer = JSONPointer(tokens: [list])
        let items = document.member(list, of: root)
        guard let items, document.kind(items) == .array else {
            document.problem("expected '\(list)': an array of entries", at: listPointer, entry: items ?? root)
            return nil
        }
        guard document.count(items) <= format.maxEntries else {
            document.problem(
                "expected at most \(ByteCount.grouped(format.maxEntries)) entries (\(format.purpose)), found \(ByteCount.grouped(document.count(items)))",
                at: listPointer, entry: items)
            return nil
        }
        var entries: [Entry] = []
        entries.reserveCapacity(document.count(items))
        var fingerprints: Set<String> = []
        for (index, item) in document.elements(items).enumerated() {
            guard !document.isFull else { break }
            let at = JSONPointer(tokens: [list, String(index)])
            guard document.kind(item) == .object else {
                document.problem("expected an entry object", at: at, entry: item)
                continue
            }
            var fields: [String: String] = [:]
            var values: [String: Int] = [:]
            var present: Set<String> = []
            for member in document.members(item) {
                let key = document.string(member.key)
                if !present.insert(key).inserted {
                    // The later value of a repeated key would be the one read: a second `reason`
                    // or `expires` hidden further along a line would change what the entry says.
                    document.problem("key '\(MessageText.oneLine(key))' is repeated", at: at.appending(key), entry: member.key)
                    continue
                }
                guard format.entryKeys.contains(key) else {
                    document.problem(
                        "unknown key '\(MessageText.oneLine(key))'; an entry has \(format.entryKeys.joined(separator: ", "))", at: at.appending(key), entry: member.value)
                    continue
                }
                guard document.kind(member.value) == .string else {
                    document.problem("expected '\(key)' to be a string", at: at.appending(key), entry: member.value)
                    continue
                }
                fields[key] = document.string(member.value)
                values[key] = member.value
            }
            for key in format.requiredKeys where !present.contains(key) {
                document.problem(format.missingMessages[key] ?? "expected '\(key)'", at: at, entry: item)
            }
            if let fingerprint = fields["fingerprint"], let value = values["fingerprint"] {
                if !isFingerprint(fingerprint) {
                    document.problem(
                        "expected a fingerprint of 16 lowercase hex digits, found '\(MessageText.clipped(fingerprint))'", at: at.appending("fingerprint"), entry: value)
                } else if !fingerprints.insert(fingerprint).inserted {
                    document.problem("fingerprint \(fingerprint) is listed twice", at: at.appending("fingerprint"), entry: value)
                }
            }
            if let expires = fields["expires"], let value = values["expires"], !CalendarDay.isValid(expires) {
                document.problem("expected 'expires' as a date YYYY-MM-DD, found '\(MessageText.clipped(expires))'", at: at.appending("expires"), entry: value)
            }
            guard format.requiredKeys.allSatisfy({ fields[$0] != nil }) else { continue }
            for problem in check(fields) {
                if let key = problem.key, let place = values[key] {
                    document.problem(problem.message, at: at.appending(key), entry: place)
                } else {
                    document.problem(problem.message, at: at, entry: item)
                }
            }
            entries.append(Entry(fields: fields, pointer: at))
        }
        return entries
    }

    /// 16 lowercase hex digits, as ``SHA256``'s prefix is written.
    package static func isFingerprint(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
