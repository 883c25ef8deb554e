import ContractJSON
import ContractModel
import ContractSchema

/// What a case promises of its response, OLD against NEW: the status, each header matcher, the
/// kind of body and, for a JSON body, its schema (``SchemaComparer`` read as a response).
struct ResponseComparer {
    let old: TreeView
    let new: TreeView
    let oldContract: Contract
    let newContract: Contract
    let oldCase: ContractCase
    let newCase: ContractCase
    private(set) var findings: [CaseFinding] = []

    init(old: TreeView, new: TreeView, oldContract: Contract, newContract: Contract, oldCase: ContractCase, newCase: ContractCase) {
        self.old = old
        self.new = new
        self.oldContract = oldContract
        self.newContract = newContract
        self.oldCase = oldCase
        self.newCase = newCase
    }

    mutating func compare() {
        compareStatus()
        compareHeaders()
        compareBody()
    }

    private func oldSide(_ value: String?, _ tokens: String...) -> Change.Side {
        old.side(value, in: oldContract, at: JSONPointer(tokens: oldCase.pointer.tokens + ["response"] + tokens))
    }

    private func newSide(_ value: String?, _ tokens: String...) -> Change.Side {
        new.side(value, in: newContract, at: JSONPointer(tokens: newCase.pointer.tokens + ["response"] + tokens))
    }

    // MARK: Status

    private mutating func compareStatus() {
        let (before, after) = (oldCase.response.status, newCase.response.status)
        let (covers, covered) = (Self.covers(after, before), Self.covers(before, after))
        guard !(covers && covered) else { return }
        let rule: ContractRule = covers ? .statusWidened : covered ? .statusNarrowed : .statusChanged
        findings.append(CaseFinding(rule, subject: "status", "status \(before) to \(after)", old: oldSide(before.description, "status"), new: newSide(after.description, "status")))
    }

    /// Whether every status `inner` allows, `outer` allows.
    static func covers(_ outer: StatusExpectation, _ inner: StatusExpectation) -> Bool {
        inner.alternatives.allSatisfy { alternative in
            switch alternative {
            case .code(let code): outer.alternatives.contains { $0 == .code(code) || $0 == .class(code / 100) }
            case .class(let digit): outer.alternatives.contains(.class(digit))
            }
        }
    }

    // MARK: Headers

    private mutating func compareHeaders() {
        let before = Dictionary(oldCase.response.headers.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(newCase.response.headers.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for name in Set(before.keys).union(after.keys).sorted() {
            compareHeader(before[name], after[name])
        }
    }

    private mutating func compareHeader(_ before: HeaderExpectation?, _ after: HeaderExpectation?) {
        let name = (after ?? before)?.name ?? ""
        let subject = "response header '\(name)'"
        let oldPlace = oldSide(before.map { Self.shown($0.matcher) }, "headers", before?.name ?? name)
        let newPlace = newSide(after.map { Self.shown($0.matcher) }, "headers", after?.name ?? name)
        func report(_ rule: ContractRule, _ message: String) {
            findings.append(CaseFinding(rule, subject: subject, "response header '\(name)': \(message)", old: before == nil ? nil : oldPlace, new: after == nil ? nil : newPlace))
        }
        let (was, now) = (before.map { Self.promise($0.matcher) }, after.map { Self.promise($0.matcher) })
        switch (was, now) {
        case (nil, nil), (.absent?, .absent?), (.present?, .present?), (.differs?, _), (_, .differs?):
            // `differs` was read as `present` above.
            break
        case (nil, .absent?):
            report(.headerForbidden, "must be absent now")
        case (nil, _?):
            report(.headerAdded, "promised now (\(Self.shown(now)))")
        case (.absent?, _):
            report(.headerAllowed, "was forbidden, may be sent now")
        case (_?, nil), (_?, .absent?):
            report(.headerRemoved, "no longer promised (was \(Self.shown(was)))")
        case (.present?, _?):
            report(.headerNarrowed, "\(Self.shown(was)) to \(Self.shown(now))")
        case (.equals(let a)?, .equals(let b)?):
            if a != b { report(.headerValueChanged, "\(Self.shown(was)) to \(Self.shown(now))") }
        case (.equals(let value)?, .pattern(let pattern)?):
            report(Self.matches(pattern, value) ? .headerWidened : .headerValueChanged, "\(Self.shown(was)) to \(Self.shown(now))")
        case (.equals?, .present?), (.pattern?, .present?):
            report(.headerWidened, "\(Self.shown(was)) to \(Self.shown(now))")
        case (.pattern(let pattern)?, .equals(let value)?):
            report(Self.matches(pattern, value) ? .headerNarrowed : .headerValueChanged, "\(Self.shown(was)) to \(Self.shown(now))")
        case (.pattern(let a)?, .pattern(let b)?):
            if a != b { report(.headerPatternChanged, "\(Self.shown(was)) to \(Self.shown(now))") }
        }
        if let before, let after, before.occurrences != .repeats, after.occurrences == .repeats, now != .absent {
            report(.headerMayRepeat, "may come more than once now")
        }
    }

    /// Whether the value `equals` gives (literal text only) matches `pattern`; a value with a
    /// placeholder is known only at run time, and counts as not matching.
    private static func matches(_ pattern: String, _ value: TemplateString) -> Bool {
        guard let literal = value.literalText, let regex = try? ECMARegex(pattern) else { return false }
        return regex.matches(literal)
    }

    /// What a matcher promises a client: `differs` holds a value to an earlier one of the flow,
    /// and promises only that the header comes.
    private static func promise(_ matcher: HeaderExpectation.Matcher) -> HeaderExpectation.Matcher {
        if case .differs = matcher { return .present }
        return matcher
    }

    private static func shown(_ matcher: HeaderExpectation.Matcher?) -> String {
        switch matcher {
        case nil: "not checked"
        case .equals(let value)?: "'\(value)'"
        case .pattern(let pattern)?: "pattern '\(pattern)'"
        case .present?: "present"
        case .absent?: "absent"
        case .differs(let value)?: "any value but '\(value)'"
        }
    }

    // MARK: Body

    private mutating func compareBody() {
        let (before, after) = (oldCase.response.body, newCase.response.body)
        // The same `$ref` text may lead to another schema (a shared file edited): JSON bodies are
        // always compared, through their references.
        if case .json = before.base, case .json = after.base {} else if before == after { return }
        let (was, now) = (Self.kind(before), Self.kind(after))
        let (oldPlace, newPlace) = (oldSide(was, Self.bodyKey(before)), newSide(now, Self.bodyKey(after)))
        switch (before.base, after.base) {
        case (.json(let a, _), .json(let b, _)):
            var schemas = SchemaComparer(old: old, new: new)
            let (oldSchema, oldAt) = old.resolver.schema(a, relativeFile: old.relativePath(of: oldContract))
            let (newSchema, newAt) = new.resolver.schema(b, relativeFile: new.relativePath(of: newContract))
            schemas.compare(oldSchema, at: oldAt, newSchema, at: newAt)
            findings += CaseFinding.schema(schemas.findings, side: .response)
        case (.text(let a), .text(let b)):
            findings += TextBodyComparison.findings(a.conditions, b.conditions, old: oldPlace, new: newPlace)
        case (.binary(let a), .binary(let b)):
            // Bytes or a digest where there was none, or tighter bounds, allow less; a different
            // one, or one taken out, or looser bounds, allow what clients were not told of.
            let widened = (a.bytes != nil && a.bytes != b.bytes) || (a.sha256 != nil && a.sha256 != b.sha256) || !Self.within(b.length, a.length)
            if widened {
                findings.append(CaseFinding(.binaryChanged, subject: "response body", "response body: the binary body is another or allows more", old: oldPlace, new: newPlace))
            } else {
                findings.append(CaseFinding(.binaryNarrowed, subject: "response body", "response body: the binary body is held to more (bytes, digest or tighter length)", old: oldPlace, new: newPlace))
            }
        case (.unchecked, _):
            findings.append(CaseFinding(.bodyChecked, subject: "response body", "response body: the case says what it is now (\(now))", old: nil, new: newPlace))
        case (_, .unchecked):
            findings.append(CaseFinding(.bodyUnchecked, subject: "response body", "response body: the case no longer says what it is (was \(was))", old: oldPlace, new: nil))
        case (.empty, _):
            findings.append(CaseFinding(.bodyAdded, subject: "response body", "response body: \(now) where the case promised none", old: oldPlace, new: newPlace))
        default:
            findings.append(CaseFinding(.bodyKindChanged, subject: "response body", "response body: \(was) to \(now)", old: oldPlace, new: newPlace))
        }
    }

    /// Whether every length `inner` allows, `outer` allows.
    static func within(_ inner: ByteCount, _ outer: ByteCount) -> Bool {
        (outer.minimum ?? 0) <= (inner.minimum ?? 0) && (outer.maximum.map { bound in inner.maximum.map { $0 <= bound } ?? false } ?? true)
    }

    private static func kind(_ body: BodyExpectation) -> String {
        switch body.base {
        case .unchecked: "not checked"
        case .json: "JSON"
        case .text: "text"
        case .empty: "empty"
        case .binary: "binary"
        }
    }

    private static func bodyKey(_ body: BodyExpectation) -> String {
        switch body.base {
        case .unchecked, .json: "schema"
        case .text: "text"
        case .empty: "empty"
        case .binary: "binary"
        }
    }
}
