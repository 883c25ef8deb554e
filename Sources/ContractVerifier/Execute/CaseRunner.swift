import ContractHTTP
import ContractJSON
import ContractModel

/// The execute stage for one case: its setup steps in order (capturing values), then its own
/// request, each with retries on transport errors only; then the check stage on the response.
struct CaseRunner: Sendable {
    let client: HTTPClient
    let builder: RequestBuilder
    let checker: ResponseChecker
    let options: VerifyOptions
    let secrets: Secrets

    func run(_ planned: PlannedCase) async -> CaseResult {
        let clock = ContinuousClock()
        let start = clock.now
        var bindings = Bindings(environment: options.environment)
        var result = CaseResult(
            contractID: planned.contract.id, caseName: planned.testCase.name, file: planned.contract.file, outcome: .passed,
            request: builder.build(planned.contract, planned.testCase, bindings).show, response: nil, findings: [], transportError: nil,
            attempts: 0, duration: .zero)
        for step in planned.testCase.setup {
            let request = builder.build(step, bindings)
            let (outcome, attempts) = await send(request.send)
            switch outcome {
            case .failure(let error):
                return finish(result, request: request.show, attempts: attempts, error: error, setup: step.name, start: start, clock: clock)
            case .success(let response):
                if let finding = checkSetup(step, response, captures: &bindings.captures) {
                    var failed = result
                    failed.request = request.show
                    failed.response = Self.summary(response)
                    failed.outcome = .failed
                    failed.findings = [finding]
                    failed.attempts = attempts
                    failed.duration = clock.now - start
                    return redacted(failed)
                }
            }
        }
        let request = builder.build(planned.contract, planned.testCase, bindings)
        // The check runs where the response arrived (see HTTPClient.send(_:options:processing:)).
        let checker = self.checker
        let expected = planned.testCase.response
        let schema = planned.responseSchema
        let captured = bindings
        let (outcome, attempts) = await send(request.send) { response in
            (Self.summary(response), checker.check(response, against: expected, schema: schema, bindings: captured))
        }
        result.request = request.show
        result.attempts = attempts
        switch outcome {
        case .failure(let error):
            return finish(result, request: request.show, attempts: attempts, error: error, setup: nil, start: start, clock: clock)
        case .success(let (summary, findings)):
            result.response = summary
            result.findings = findings
            result.outcome = findings.isEmpty ? .passed : .failed
        }
        result.duration = clock.now - start
        return redacted(result)
    }

    /// A case without setup steps as one request and what to make of its outcome after `attempts`
    /// tries, for a stream (``HTTPClient/stream(width:options:retries:next:)``): `complete` runs
    /// where the response arrives.
    func prepare(_ planned: PlannedCase) -> (request: HTTPRequest, complete: @Sendable (Result<HTTPResponse, TransportError>, Int) -> CaseResult) {
        let clock = ContinuousClock()
        let start = clock.now
        let bindings = Bindings(environment: options.environment)
        let request = builder.build(planned.contract, planned.testCase, bindings)
        let shown = request.show
        return (request.send, { outcome, attempts in
            // Built here, once, rather than copied from a template made up front: this runs for
            // every response, and a copy of a whole result costs a retain per field.
            var result = CaseResult(
                contractID: planned.contract.id, caseName: planned.testCase.name, file: planned.contract.file, outcome: .passed,
                request: shown, response: nil, findings: [], transportError: nil, attempts: attempts, duration: .zero)
            switch outcome {
            case .failure(let error):
                return finish(result, request: shown, attempts: attempts, error: error, setup: nil, start: start, clock: clock)
            case .success(let response):
                result.findings = checker.check(response, against: planned.testCase.response, schema: planned.responseSchema, bindings: bindings)
                result.outcome = result.findings.isEmpty ? .passed : .failed
                result.response = Self.summary(response)
                result.duration = clock.now - start
                return redacted(result)
            }
        })
    }

    /// Sends with up to `options.retries` more attempts after transient transport errors.
    private func send(_ request: HTTPRequest) async -> (Result<HTTPResponse, TransportError>, attempts: Int) {
        await send(request) { $0 }
    }

    /// The same, with `process` run on each response where it arrives.
    private func send<Output: Sendable>(
        _ request: HTTPRequest, process: @escaping @Sendable (HTTPResponse) -> Output
    ) async -> (Result<Output, TransportError>, attempts: Int) {
        var attempt = 1
        while true {
            let outcome = await client.send(request, options: options.http) { $0.map(process) }
            guard case .failure(let error) = outcome, error.isTransient, attempt <= options.retries, !Task.isCancelled else {
                return (outcome, attempt)
            }
            try? await Task.sleep(for: TransportError.retryPause(after: attempt))
            attempt += 1
        }
    }

    private func finish(
        _ result: CaseResult, request: DisplayedRequest, attempts: Int, error: TransportError, setup: String?, start: ContinuousClock.Instant,
        clock: ContinuousClock
    ) -> CaseResult {
        var result = result
        result.request = request
        result.attempts = attempts
        result.transportError = error
        let retried = attempts > 1 ? " (after \(attempts) attempts)" : ""
        if let setup {
            result.outcome = .failed
            result.findings = [Finding(kind: .setup, message: "setup step '\(setup)' got no response: \(error)\(retried)")]
        } else {
            result.outcome = .error
            result.findings = [Finding(kind: .transport, message: "no response: \(error)\(retried)")]
        }
        result.duration = clock.now - start
        return redacted(result)
    }

    /// The step's status, then its captures; the first problem fails the case.
    private func checkSetup(_ step: SetupStep, _ response: HTTPResponse, captures: inout [String: JSONValue]) -> Finding? {
        guard step.status.accepts(response.status) else {
            return Finding(
                kind: .setup, message: "setup step '\(step.name)': expected status \(step.status), found \(response.status)",
                excerpt: response.body.isEmpty ? nil : BodyExcerpt.head(response.body, secrets: secrets))
        }
        guard !step.captures.isEmpty else { return nil }
        let document: JSONValue
        do {
            document = try JSONParser(tracksLocations: false).parse(response.body).value
        } catch {
            return Finding(
                kind: .setup, message: "setup step '\(step.name)': cannot capture from a body that is not JSON (\(error.message))",
                excerpt: BodyExcerpt.head(response.body, secrets: secrets))
        }
        for capture in step.captures {
            do {
                captures[capture.variable] = try document.resolve(capture.pointer)
            } catch {
                return Finding(
                    kind: .setup, message: "setup step '\(step.name)': cannot capture '\(capture.variable)' at \(capture.pointer): \(error.message)",
                    pointer: capture.pointer.description, excerpt: BodyExcerpt.head(response.body, secrets: secrets))
            }
        }
        return nil
    }

    private static func summary(_ response: HTTPResponse) -> ResponseSummary {
        ResponseSummary(
            status: response.status, headers: response.headers, httpVersion: response.httpVersion, bodyBytes: response.body.count,
            timings: response.timings)
    }

    /// Makes every text of a result safe to show: each secret masked (those the server echoed
    /// too), then control characters escaped, since the server chose them.
    private func redacted(_ result: CaseResult) -> CaseResult {
        // The common case costs nothing: a passing result shows no text the server chose on the
        // console, and the file formats escape what they write.
        guard !(secrets.isEmpty && result.findings.isEmpty) else { return result }
        func shown(_ text: String) -> String { ControlCharacters.escaped(secrets.redact(text)) }
        var result = result
        result.findings = result.findings.map { finding in
            var finding = finding
            finding.message = shown(finding.message)
            finding.excerpt = finding.excerpt.map(shown)
            // A member name is the server's to choose: an echoed secret can be a key in the pointer.
            finding.pointer = finding.pointer.map(shown)
            return finding
        }
        if var response = result.response {
            response.headers = HTTPHeaders(response.headers.map { HTTPHeader(shown($0.name), shown($0.value)) })
            result.response = response
        }
        result.request.url = shown(result.request.url)
        result.request.headers = result.request.headers.map { HTTPHeader($0.name, shown($0.value)) }
        result.request.body = result.request.body.map(secrets.redact)
        if var error = result.transportError {
            error.detail = shown(error.detail)
            result.transportError = error
        }
        return result
    }
}
