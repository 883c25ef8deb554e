/// A rule outside schemas, with its fixed severity: endpoints, cases, statuses, headers, body
/// kinds, what a request sends, and the app's fixtures. Schema rules are ``SchemaConcept``s read
/// through a ``MessageSide``.
struct ContractRule: Sendable, Hashable {
    let id: String
    let severity: Change.Severity
    let summary: String

    static let contractRemoved = ContractRule(id: "contract-removed", severity: .breaking, summary: "a contract (an endpoint) is gone: clients that call it fail, and its fixtures are gone")
    static let contractAdded = ContractRule(id: "contract-added", severity: .safe, summary: "a new contract")
    static let contractIDChanged = ContractRule(
        id: "contract-id-changed", severity: .warning,
        summary: "the same endpoint under another id: the API is the same, but the fixtures move (`stub.use(\"old.id\", …)` in unit tests fails)")
    static let methodChanged = ContractRule(id: "endpoint-method-changed", severity: .breaking, summary: "the endpoint's method is another")
    static let pathChanged = ContractRule(id: "endpoint-path-changed", severity: .breaking, summary: "the endpoint's path is another (renaming a placeholder is no change)")
    static let caseRemoved = ContractRule(id: "case-removed", severity: .breaking, summary: "a case is gone: what it promised is no longer promised, and its fixture is gone")
    static let caseAdded = ContractRule(id: "case-added", severity: .safe, summary: "a new case")
    static let statusChanged = ContractRule(id: "response-status-changed", severity: .breaking, summary: "the case's status is another (`204` to `200`)")
    static let statusWidened = ContractRule(id: "response-status-widened", severity: .breaking, summary: "the case allows statuses it did not (`200` to `2XX`): clients may get one they do not handle")
    static let statusNarrowed = ContractRule(id: "response-status-narrowed", severity: .safe, summary: "the case allows fewer statuses (`2XX` to `200`)")
    static let headerRemoved = ContractRule(id: "response-header-removed", severity: .breaking, summary: "a header the case promised is no longer promised (matcher gone, or `absent`)")
    static let headerAdded = ContractRule(id: "response-header-added", severity: .safe, summary: "a header the case promises now")
    static let headerValueChanged = ContractRule(id: "response-header-value-changed", severity: .breaking, summary: "the header's value is another (`equals` changed, or a pattern the old value does not match)")
    static let headerWidened = ContractRule(id: "response-header-widened", severity: .breaking, summary: "the header may hold values it could not (`equals` to `pattern` or `present`)")
    static let headerNarrowed = ContractRule(id: "response-header-narrowed", severity: .safe, summary: "the header may hold fewer values (`present` to `pattern`, a pattern to a value it matches)")
    static let headerPatternChanged = ContractRule(id: "response-header-pattern-changed", severity: .warning, summary: "the header's pattern is another (patterns cannot be compared by their text)")
    static let headerAllowed = ContractRule(id: "response-header-allowed", severity: .warning, summary: "a header the case forbade (`absent`) may be sent now")
    static let headerForbidden = ContractRule(id: "response-header-forbidden", severity: .safe, summary: "a header the case did not check must be absent now")
    static let headerMayRepeat = ContractRule(id: "response-header-may-repeat", severity: .warning, summary: "the header may come more than once (`repeats: true`): clients reading one value may meet several")
    static let bodyKindChanged = ContractRule(id: "response-body-kind-changed", severity: .breaking, summary: "the body is of another kind (JSON to text, binary to JSON, a body to `empty`)")
    static let bodyAdded = ContractRule(id: "response-body-added", severity: .warning, summary: "a body where the case promised none (`empty`)")
    static let bodyUnchecked = ContractRule(id: "response-body-unchecked", severity: .warning, summary: "the case no longer says what the body is (its `schema`, `text` or `binary` taken out)")
    static let bodyChecked = ContractRule(id: "response-body-checked", severity: .safe, summary: "the case says what the body is where it did not")
    static let textChanged = ContractRule(id: "response-text-changed", severity: .breaking, summary: "a text body's exact value, digest or charset is another")
    static let textWidened = ContractRule(id: "response-text-widened", severity: .breaking, summary: "a text body allows more (a condition taken out, a length bound relaxed, a `contains` dropped)")
    static let textNarrowed = ContractRule(id: "response-text-narrowed", severity: .safe, summary: "a text body allows less (a condition added, a bound tightened)")
    static let textPatternChanged = ContractRule(id: "response-text-pattern-changed", severity: .warning, summary: "a text body's pattern is another")
    static let binaryChanged = ContractRule(id: "response-binary-changed", severity: .breaking, summary: "a binary body's bytes, digest or length is another, or allows more")
    static let binaryNarrowed = ContractRule(id: "response-binary-narrowed", severity: .safe, summary: "a binary body's length bounds are tighter")
    static let requestBodyAdded = ContractRule(id: "request-body-added", severity: .breaking, summary: "the case sends a body where it sent none: clients must send one")
    static let requestBodyRemoved = ContractRule(id: "request-body-removed", severity: .warning, summary: "the case sends no body where it sent one: clients still sending it may be refused")
    static let requestContentTypeChanged = ContractRule(id: "request-content-type-changed", severity: .breaking, summary: "the case sends its body as another media type")
    static let requestSchemaAdded = ContractRule(id: "request-schema-added", severity: .warning, summary: "a request `schema` where any body was valid")
    static let requestSchemaRemoved = ContractRule(id: "request-schema-removed", severity: .safe, summary: "the request `schema` taken out")
    static let requestBodyRejected = ContractRule(
        id: "request-body-rejected", severity: .breaking, summary: "the body the OLD case sends fails the NEW request schema: clients sending it today are refused")
    static let requestHeaderRequired = ContractRule(id: "request-header-added", severity: .breaking, summary: "every case of the endpoint sends a header no OLD case sent: clients must send it")
    static let requestHeaderAddedToCase = ContractRule(id: "request-header-added-to-case", severity: .warning, summary: "the case sends a header it did not (other cases do not): clients may have to send it")
    static let requestHeaderRemoved = ContractRule(id: "request-header-removed", severity: .warning, summary: "no case of the endpoint sends a header any more: clients still sending it may be refused")
    static let requestQueryRequired = ContractRule(id: "request-query-added", severity: .breaking, summary: "every case of the endpoint sends a query parameter no OLD case sent: clients must send it")
    static let requestQueryAddedToCase = ContractRule(id: "request-query-added-to-case", severity: .warning, summary: "the case sends a query parameter it did not: clients may have to send it")
    static let requestQueryRemoved = ContractRule(id: "request-query-removed", severity: .warning, summary: "no case of the endpoint sends a query parameter any more: clients still sending it may be refused")
    static let parameterRequired = ContractRule(
        id: "request-parameter-required", severity: .breaking,
        summary: "a parameter the endpoint describes is required now, where clients did not have to send it (it was optional, or not described)")
    static let parameterOptional = ContractRule(id: "request-parameter-optional", severity: .safe, summary: "a required parameter is optional now")
    static let parameterAdded = ContractRule(id: "request-parameter-added", severity: .safe, summary: "the endpoint describes an optional parameter it did not")
    static let parameterRemoved = ContractRule(
        id: "request-parameter-removed", severity: .warning, summary: "the endpoint no longer describes a parameter: clients still sending it may be refused, or it may be ignored")
    static let parameterStyleChanged = ContractRule(
        id: "request-parameter-style-changed", severity: .breaking,
        summary: "a parameter's `style` or `explode` is another: clients write its array another way (`ids=1&ids=2` to `ids=1,2`)")
    static let fixtureNoLongerMatches = ContractRule(
        id: "fixture-no-longer-matches", severity: .warning,
        summary: "the fixture `contract fixtures` wrote from the OLD case (what the app's unit tests are served) fails the NEW case: the app is tested against a response the server no longer sends; regenerate the fixtures and run the app's tests (a warning: whether the app breaks, the rules on the case say)")
    static let formatAssertionChanged = ContractRule(
        id: "tree-format-assertion-changed", severity: .warning, summary: "`formatAssertion` in `contract.json` changed: every `format` in the tree is checked, or no longer checked")

    static let all: [ContractRule] = [
        contractRemoved, contractAdded, contractIDChanged, methodChanged, pathChanged, caseRemoved, caseAdded, statusChanged, statusWidened,
        statusNarrowed, headerRemoved, headerAdded, headerValueChanged, headerWidened, headerNarrowed, headerPatternChanged, headerAllowed,
        headerForbidden, headerMayRepeat, bodyKindChanged, bodyAdded, bodyUnchecked, bodyChecked, textChanged, textWidened, textNarrowed,
        textPatternChanged, binaryChanged, binaryNarrowed, requestBodyAdded, requestBodyRemoved, requestContentTypeChanged, requestSchemaAdded,
        requestSchemaRemoved, requestBodyRejected, requestHeaderRequired, requestHeaderAddedToCase, requestHeaderRemoved, requestQueryRequired,
        requestQueryAddedToCase, requestQueryRemoved, parameterRequired, parameterOptional, parameterAdded, parameterRemoved, parameterStyleChanged,
        fixtureNoLongerMatches, formatAssertionChanged,
    ]
}
