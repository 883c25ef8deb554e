import ContractHTTP
import ContractJSON
import ContractModel

/// The execute stage for one case: its setup steps in order (capturing values), then its own
/// request, then its teardown steps, as one chain of requests in one slot of the HTTP client's
/// stream; the check stage runs on the case's response where it arrives. Retries on transport
/// errors are the stream's; asking again after a refusal (429, 503) is the runner's (``Refusal``).
///
/// A class: each request's completion holds the runner, and a reference is one retain where a
/// copy of the builder, the checker, the environment and the secrets was a dozen, for every request.
final class CaseRunner: Sendable {
    let builder: RequestBuilder
    let checker: ResponseChecker
    let environment: [String: String]
    let secrets: Secrets
    /// When a refused request is asked again.
    let refusal: Refusal
    /// This run's `${unique:…}` values, of which each case takes its own.
    let unique = UniqueValues.fresh()

    init(builder: RequestBuilder, checker: ResponseChecker, environment: [String: String], secrets: Secrets, refusal: Refusal) {
        self.builder = builder
        self.checker = checker
        self.environment = environment
        self.secrets = secrets
        self.refusal = refusal
    }

    /// The case's first request; `deliver` gets the case's result, once, when its last request
    /// is done (on an engine's thread). Nil when the case ended before sending anything (its
    /// first request follows a link that is not followed): its result is delivered already.
    func start(_ planned: PlannedCase, deliver: @escaping @Sendable (consuming CaseResult) -> Void) -> StreamRequest? {
        let start = ContinuousClock.now
        let bindings = Bindings(environment: environment, unique: unique.forCase(planned.position))
        return planned.testCase.setup.isEmpty
            ? request(planned, bindings, start, deliver) : step(0, of: planned, bindings, start, deliver)
    }

    /// Setup step `number`, whose completion checks it and chains the next step or the case's request.
    /// - Parameters:
    ///   - chain: the steps before it, sent and answered: the result's ``CaseResult/chain`` if
    ///     this one fails.
    ///   - again: when the server refused it before (``Refusal``).
    private func step(
        _ number: Int, of planned: PlannedCase, _ bindings: Bindings, after chain: [ChainStep] = [], _ start: ContinuousClock.Instant,
        again: Refusal.Again = Refusal.Again(), _ deliver: @escaping @Sendable (consuming CaseResult) -> Void
    ) -> StreamRequest? {
        let step = planned.testCase.setup[number]
        let request: RequestBuilder.Built
        do {
            request = try builder.build(step, bindings)
        } catch {
            let finding = Finding(kind: .setup, rule: "setup.\(error.part)", subject: step.name, message: "setup step '\(step.name)' cannot be sent: \(error.message)")
            return tearDown(planned, bindings, unsent(planned, step.method, step.request, bindings, finding, shownURL: error.shownURL, after: chain, start: start), deliver)
        }
        return StreamRequest(request.send, pause: again.pause, attemptsMade: again.attempts) { [self] outcome, attempts in
            if case .success(let response) = outcome, let pause = refusal.pause(after: response, expected: step.status, attempts: attempts) {
                let next = Refusal.Again(pause: pause, attempts: attempts, refusals: again.refusals + 1)
                return self.step(number, of: planned, bindings, after: chain, start, again: next, deliver)
            }
            var result = CaseResult(
                contractID: planned.owner.contract.id, caseName: planned.testCase.name, file: planned.owner.contract.file, outcome: .failed,
                request: request.show, response: nil, findings: [], transportError: nil, attempts: attempts, duration: .zero,
                position: planned.position, chain: chain)
            switch outcome {
            case .failure(let error):
                return tearDown(planned, bindings, finish(result, error: error, setup: step.name, start: start), deliver)
            case .success(let response):
                var bindings = bindings
                if var finding = checkStep(step, response, into: &bindings, from: request.send.url, kind: .setup) {
                    finding.message += Refusal.told(again.refusals, last: response.status)
                    result.response = Self.summary(response)
                    result.findings = [finding]
                    result.duration = ContinuousClock.now - start
                    return tearDown(planned, bindings, redacted(result), deliver)
                }
                // A new array per step (the closure holds the old one): a few small copies for the
                // handful of steps a flow has, against a request and a response each.
                let sent = chain + [ChainStep(name: step.name, request: request.show)]
                return number + 1 < planned.testCase.setup.count
                    ? self.step(number + 1, of: planned, bindings, after: sent, start, deliver) : self.request(planned, bindings, after: sent, start, deliver)
            }
        }
    }

    /// The case's own request, checked where its response arrives.
    /// - Parameters:
    ///   - chain: the setup steps sent before it, kept in the result only if the case does not pass.
    ///   - again: when the server refused it before with a status of `--retry-status`.
    private func request(
        _ planned: PlannedCase, _ bindings: Bindings, after chain: [ChainStep] = [], _ start: ContinuousClock.Instant,
        again: Refusal.Again = Refusal.Again(), _ deliver: @escaping @Sendable (consuming CaseResult) -> Void
    ) -> StreamRequest? {
        let request: RequestBuilder.Built
        do {
            request = try builder.build(planned.owner.contract, planned.testCase, bindings)
        } catch {
            let finding = Finding(kind: .setup, rule: error.part, subject: "request", message: "the case's request cannot be sent: \(error.message)")
            let result = unsent(
                planned, planned.owner.contract.endpoint.method, planned.testCase.request, bindings, finding, shownURL: error.shownURL, after: chain, start: start)
            return tearDown(planned, bindings, result, deliver)
        }
        let shown = request.show
        return StreamRequest(request.send, pause: again.pause, attemptsMade: again.attempts) { [self] outcome, attempts in
            // Asked first: most runs name no status to retry.
            if !refusal.statuses.isEmpty, case .success(let response) = outcome,
                let pause = refusal.pause(after: response, expected: planned.testCase.response.status, attempts: attempts)
            {
                let next = Refusal.Again(pause: pause, attempts: attempts, refusals: again.refusals + 1)
                return self.request(planned, bindings, after: chain, start, again: next, deliver)
            }
            // Built here, once, rather than copied from a template made up front: this runs for
            // every response, and a copy of a whole result costs a retain per field.
            var result = CaseResult(
                contractID: planned.owner.contract.id, caseName: planned.testCase.name, file: planned.owner.contract.file, outcome: .passed,
                request: shown, response: nil, findings: [], transportError: nil, attempts: attempts, duration: .zero,
                position: planned.position)
            switch outcome {
            case .failure(let error):
                result.chain = chain
                return tearDown(planned, bindings, finish(result, error: error, setup: nil, start: start), deliver)
            case .success(let response):
                var bindings = bindings
                // `planned.testCase` is read in place: a local copy of the case cost a retain per
                // field, per response.
                // What the case made, for its `values` and its teardown: an answer of a status it
                // accepts, or any success (a create answering 201 where 200 was promised still made
                // the item).
                // Made whoever reads it: the teardown, the `values`, or only a header's matcher.
                var ownCapture: Finding?
                var uncaptured: [String] = []
                if !planned.testCase.captures.isEmpty, planned.testCase.response.status.accepts(response.status) || (200...299).contains(response.status) {
                    let own = SetupStep(name: "response", method: planned.owner.contract.endpoint.method, path: planned.owner.contract.endpoint.path,
                        request: planned.testCase.request, status: StatusExpectation([.code(response.status)]), captures: planned.testCase.captures)
                    // Captured afresh, so a failed one is known even where a setup step made a
                    // value of the same name (which the teardown still gets, as before).
                    var fresh = bindings
                    for capture in planned.testCase.captures { fresh.captures[capture.variable] = nil }
                    ownCapture = checkStep(own, response, into: &fresh, from: request.send.url, kind: .teardown, named: "the case's response")
                    uncaptured = planned.testCase.captures.map(\.variable).filter { fresh.captures[$0] == nil }
                    fresh.captures.merge(bindings.captures) { made, _ in made }
                    bindings = fresh
                }
                result.findings = checker.check(
                    response, against: planned.testCase.response, schema: planned.responseSchema, streaming: planned.streaming, bindings: bindings,
                    headerPatterns: planned.headerPatterns)
                // A value the response is held to that could not be captured fails the case: else
                // `differs` and a pattern would hold against the empty text it stands for.
                if var finding = ownCapture, Self.variables(readBy: planned.testCase.response).contains(where: uncaptured.contains) {
                    finding.kind = .body
                    finding.rule = "capture"
                    finding.message += ", so the response's checks that read it cannot hold"
                    result.findings.insert(finding, at: 0)
                }
                result.outcome = result.findings.isEmpty ? .passed : .failed
                if result.outcome != .passed { result.chain = chain }
                result.response = Self.summary(response)
                result.duration = ContinuousClock.now - start
                if var finding = ownCapture, !planned.testCase.teardown.isEmpty {
                    finding.message += ", so the teardown steps that need it were not sent"
                    result.teardown.append(redacted(finding))
                }
                return tearDown(planned, bindings, redacted(result), deliver)
            }
        }
    }

    /// The case's teardown steps from `number` on, then the delivery of its result. A step that
    /// reads a capture its setup never made (the setup failed first) is skipped: there is nothing
    /// of its to undo.
    private func tearDown(
        _ planned: PlannedCase, _ bindings: Bindings, _ result: consuming CaseResult, from number: Int = 0, again: Refusal.Again = Refusal.Again(),
        _ deliver: @escaping @Sendable (consuming CaseResult) -> Void
    ) -> StreamRequest? {
        let steps = planned.testCase.teardown
        guard let index = steps[number...].firstIndex(where: { step in step.request.capturedVariables.allSatisfy { bindings.captures[$0] != nil } })
        else {
            deliver(result)
            return nil
        }
        let step = steps[index]
        let request: RequestBuilder.Built
        do {
            request = try builder.build(step, bindings)
        } catch {
            var result = result
            result.teardown.append(redacted(Finding(
                kind: .teardown, rule: "teardown.\(error.part)", subject: step.name, message: "teardown step '\(step.name)' cannot be sent: \(error.message)")))
            return tearDown(planned, bindings, result, from: index + 1, deliver)
        }
        // A parameter taken (`consuming`) cannot be held by a closure: this copy is (the rare path of a case with teardown steps).
        let pending = result
        return StreamRequest(request.send, pause: again.pause, attemptsMade: again.attempts) { [self] outcome, attempts in
            // Cleaning up is no check of the contract: a server refusing the load (429, 503) is
            // asked again, a few times, rather than left with what the case made.
            if case .success(let response) = outcome, let pause = refusal.teardownPause(after: response, expected: step.status, refusals: again.refusals) {
                let next = Refusal.Again(pause: pause, attempts: attempts, refusals: again.refusals + 1)
                return tearDown(planned, bindings, pending, from: index, again: next, deliver)
            }
            var result = pending
            var bindings = bindings
            let retried = attempts > 1 ? " (after \(attempts) attempts)" : ""
            switch outcome {
            case .failure(let error):
                result.teardown.append(redacted(
                    Finding(kind: .teardown, rule: "teardown.no-response", subject: step.name, message: "teardown step '\(step.name)' got no response: \(error)\(retried)")))
            case .success(let response):
                if var finding = checkStep(step, response, into: &bindings, from: request.send.url, kind: .teardown) {
                    finding.message += Refusal.told(again.refusals, last: response.status)
                    result.teardown.append(redacted(finding))
                }
            }
            return tearDown(planned, bindings, result, from: index + 1, deliver)
        }
    }

    /// The `${capture:…}` names a response's header matchers and `values` read.
    static func variables(readBy response: ResponseExpectation) -> Set<String> {
        Set(response.templates.flatMap(\.capturedVariables))
    }

    /// The result of a case that ended before a request could be sent: the link it was to follow
    /// is not followed (another origin, a control character), or a header would carry a line
    /// break, which an earlier response (or the environment) gave, so the case fails, as for any
    /// other response that breaks the flow. Its request is shown as the link it was to follow, or
    /// its URL (`shownURL`), never sent.
    private func unsent(
        _ planned: PlannedCase, _ method: HTTPMethod, _ request: CaseRequest, _ bindings: Bindings, _ finding: Finding, shownURL: String? = nil,
        after chain: [ChainStep], start: ContinuousClock.Instant
    ) -> CaseResult {
        // A link of megabytes (a body's value) is not followed, and shown cut.
        let link = FollowedLink.shown(shownURL ?? request.url.map(bindings.display) ?? "")
        let result = CaseResult(
            contractID: planned.owner.contract.id, caseName: planned.testCase.name, file: planned.owner.contract.file, outcome: .failed,
            request: DisplayedRequest(method: method.rawValue, url: link, headers: [], body: nil),
            response: nil, findings: [finding], transportError: nil, attempts: 0, duration: ContinuousClock.now - start, position: planned.position,
            chain: chain)
        return redacted(result)
    }

    private func finish(_ result: CaseResult, error: TransportError, setup: String?, start: ContinuousClock.Instant) -> CaseResult {
        var result = result
        result.transportError = error
        let retried = result.attempts > 1 ? " (after \(result.attempts) attempts)" : ""
        // No response, to a setup step or to the case's own request, says nothing about the
        // contract: an error, not drift.
        result.outcome = .error
        if let setup {
            result.findings = [Finding(kind: .setup, rule: "setup.no-response", subject: setup, message: "setup step '\(setup)' got no response: \(error)\(retried)")]
        } else {
            result.findings = [Finding(kind: .transport, rule: "transport", subject: error.kind.rawValue, message: "no response: \(error)\(retried)")]
        }
        result.duration = ContinuousClock.now - start
        return redacted(result)
    }

    /// A setup or teardown step's status, then its captures, kept in `bindings` with the `url`
    /// the response came from: the first problem, with rules named after the kind
    /// (`setup.status`, `teardown.status`). The first problem fails a setup step (and the case).
    /// - Parameter named: how messages name the step; `setup step 'create'` by default.
    private func checkStep(
        _ step: SetupStep, _ response: HTTPResponse, into bindings: inout Bindings, from url: String, kind: Finding.Kind, named: String? = nil
    ) -> Finding? {
        let word = kind.rawValue
        let shown = named ?? "\(word) step '\(step.name)'"
        guard step.status.accepts(response.status) else {
            return Finding(
                kind: kind, rule: "\(word).status", subject: step.name, message: "\(shown): expected status \(step.status), found \(response.status)",
                excerpt: response.body.isEmpty ? nil : BodyExcerpt.head(response.body, secrets: secrets))
        }
        guard !step.captures.isEmpty else { return nil }
        var document: JSONValue?
        if step.captures.contains(where: { if case .body = $0.source { true } else { false } }) {
            do {
                document = try JSONParser(tracksLocations: false).parse(response.body).value
            } catch {
                return Finding(
                    kind: kind, rule: "\(word).capture-json", subject: step.name, message: "\(shown): cannot capture from a body that is not JSON (\(error.message))",
                    excerpt: BodyExcerpt.head(response.body, secrets: secrets))
            }
        }
        // Every capture that can be made is, even after one that cannot: a teardown step needs
        // only its own.
        var first: Finding?
        for capture in step.captures {
            switch CapturedValue.read(capture, body: document, headers: response.headers) {
            case .success(let value):
                bindings.keep(value, capturedBy: capture, from: url)
            case .failure(let failure):
                var pointer: String?
                if case .body(let at) = capture.source { pointer = at.description }
                first = first ?? Finding(
                    kind: kind, rule: "\(word).capture", subject: "\(step.name)/\(capture.variable)",
                    message: "\(shown): cannot capture '\(capture.variable)' at \(capture.place): \(failure.message)",
                    pointer: pointer, excerpt: BodyExcerpt.head(response.body, secrets: secrets))
            }
        }
        return first
    }

    private static func summary(_ response: HTTPResponse) -> ResponseSummary {
        ResponseSummary(
            status: response.status, headers: response.headers, httpVersion: response.httpVersion, bodyBytes: response.body.count,
            timings: response.timings)
    }

    /// Makes every text of a result safe to show: each secret masked (those the server echoed
    /// too), then control characters escaped, since the server chose them.
    private func redacted(_ result: consuming CaseResult) -> CaseResult {
        // The common case costs nothing: a passing result shows no text the server chose on the
        // console, and the file formats escape what they write.
        guard !(secrets.isEmpty && result.findings.isEmpty) else { return result }
        func shown(_ text: String) -> String { ShownText.escaped(secrets.redact(text)) }
        var result = result
        result.findings = result.findings.map(redacted)
        if var response = result.response {
            response.headers = HTTPHeaders(response.headers.map { HTTPHeader(shown($0.name), shown($0.value)) })
            result.response = response
        }
        result.request = redacted(result.request)
        // Captured values fill the setup steps' requests too, and a server may have echoed a
        // secret into one.
        result.chain = result.chain.map { ChainStep(name: $0.name, request: redacted($0.request)) }
        if var error = result.transportError {
            error.detail = shown(error.detail)
            result.transportError = error
        }
        return result
    }

    private func redacted(_ request: DisplayedRequest) -> DisplayedRequest {
        func shown(_ text: String) -> String { ShownText.escaped(secrets.redact(text)) }
        var request = request
        request.url = shown(request.url)
        request.headers = request.headers.map { HTTPHeader($0.name, shown($0.value)) }
        request.body = request.body.map(secrets.redact)
        return request
    }

    private func redacted(_ finding: Finding) -> Finding {
        func shown(_ text: String) -> String { ShownText.escaped(secrets.redact(text)) }
        var finding = finding
        finding.message = shown(finding.message)
        finding.excerpt = finding.excerpt.map(shown)
        // A member name is the server's to choose: an echoed secret can be a key in the pointer.
        finding.pointer = finding.pointer.map(shown)
        // So can a repeated member name.
        finding.subject = finding.subject.map(shown)
        return finding
    }
}
