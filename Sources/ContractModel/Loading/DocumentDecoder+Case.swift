import ContractJSON

extension DocumentDecoder {
    mutating func decodeCase(_ field: Field, path: PathTemplate?) -> ContractCase? {
        let name = field.value.objectValue?["name"]?.stringValue
        // Said only in messages: made only for one (a large contract has a case every few lines).
        func what() -> String { name.map { "case '\($0)'" } ?? "a case" }
        guard let fields = object(field, what(), allowed: FormatKeys.testCase, required: ["name", "response"]) else { return nil }
        let checkedName = pathIdentifier(fields["name"], "name", as: .caseName)
        let summary = string(fields["summary"], "summary")
        let description = string(fields["description"], "description")
        let tags = stringList(fields["tags"], "tags")

        var captured: [String] = []
        let setup = decodeSteps(fields["setup"], "setup", captured: &captured, defaultStatus: .success)
        let usesBefore = templateUses.count
        var request = CaseRequest()
        let requestFields = fields["request"].flatMap { object($0, "the request of \(what())", allowed: FormatKeys.caseRequest) }
        if let requestFields { request = decodeCaseRequest(requestFields) }
        checkCaptureUses(from: usesBefore, captured: captured, owner: what())
        if let path, request.url == nil {
            checkPathParams(request, path: path, owner: what(), fields: requestFields, at: field.pointer)
        }
        // The case's own captures are made from its response before its `values` are checked.
        let captures = decodeCaptures(fields["capture"])
        let responseUses = templateUses.count
        let response = fields["response"].flatMap { decodeResponse($0, what: what()) }
        captured += captures.map(\.variable)
        checkCaptureUses(from: responseUses, captured: captured, owner: "the response of \(what())")
        let teardown = decodeSteps(fields["teardown"], "teardown", captured: &captured, defaultStatus: SetupStep.teardownStatus)
        guard let checkedName, let response else { return nil }
        return ContractCase(
            name: checkedName, summary: summary, description: description, tags: tags, setup: setup, request: request,
            response: response, captures: captures, teardown: teardown, pointer: field.pointer)
    }

    /// A case's `setup` or `teardown`: steps with names unique within the list, each reading only
    /// what an earlier step captured (for teardown, the setup's captures too).
    private mutating func decodeSteps(
        _ listField: Field?, _ key: String, captured: inout [String], defaultStatus: StatusExpectation
    ) -> [SetupStep] {
        guard let listField else { return [] }
        if listField.value.arrayValue == nil {
            error("'\(key)' must be an array of steps, found \(describe(listField.value))", at: listField.pointer)
        }
        var steps: [SetupStep] = []
        var stepNames: [String: JSONPointer] = [:]
        for element in listField.elements {
            let usesBefore = templateUses.count
            guard let step = decodeSetupStep(element, kind: key, defaultStatus: defaultStatus) else { continue }
            checkCaptureUses(from: usesBefore, captured: captured, owner: "\(key) step '\(step.name)'")
            if let first = stepNames[step.name] {
                error("duplicate \(key) step name '\(step.name)', first used\(Self.where(document.location(of: first)))", at: element.pointer.appending("name"))
            }
            stepNames[step.name] = element.pointer.appending("name")
            captured += step.captures.map(\.variable)
            steps.append(step)
        }
        return steps
    }

    /// Every `${capture:NAME}` read since `start` must name a variable captured by an earlier step.
    mutating func checkCaptureUses(from start: Int, captured: [String], owner: @autoclosure () -> String) {
        for use in templateUses[start...] {
            for variable in use.template.capturedVariables where !captured.contains(variable) {
                let known = captured.isEmpty ? " (no earlier setup step captures anything)" : didYouMean(variable, among: captured)
                error("'${capture:\(variable)}' is not captured by any earlier setup step of \(owner())\(known)", at: use.pointer)
            }
        }
    }

    mutating func decodeSetupStep(_ field: Field, kind: String = "setup", defaultStatus: StatusExpectation = .success) -> SetupStep? {
        let name = field.value.objectValue?["name"]?.stringValue
        let what = name.map { "\(kind) step '\($0)'" } ?? "a \(kind) step"
        guard let fields = object(field, what, allowed: FormatKeys.setupStep, required: ["name", "request"]) else { return nil }
        let checkedName = identifier(fields["name"], "name")
        var method: HTTPMethod?
        var path: PathTemplate?
        var request = CaseRequest()
        if let requestField = fields["request"],
            let requestFields = object(requestField, "the request of \(what)", allowed: FormatKeys.setupRequest, required: ["method"])
        {
            method = decodeMethod(requestFields["method"])
            request = decodeCaseRequest(requestFields)
            switch (requestFields["path"], requestFields["url"]) {
            case (nil, nil):
                error("the request of \(what) has no 'path' (or 'url', to follow a link an earlier step captured)", at: requestField.pointer)
            case (_?, let url?):
                error("the request of \(what) has both 'path' and 'url': give one", at: url.pointer, atKey: true)
            case (let pathField?, nil):
                path = decodePath(pathField)
                if let path {
                    checkPathParams(request, path: path, owner: what, fields: requestFields, at: field.pointer)
                }
            case (nil, _?):
                // The link names the path; the step's own path is only known when it is sent.
                path = request.url == nil ? nil : SetupStep.followedPath
            }
        }
        let status = fields["status"].map { decodeStatus($0) } ?? defaultStatus
        let captures = decodeCaptures(fields["capture"])
        guard let checkedName, let method, let path, let status else { return nil }
        return SetupStep(name: checkedName, method: method, path: path, request: request, status: status, captures: captures)
    }

    /// A `capture` object: variable names to where each value is in the response: a JSON Pointer
    /// into its JSON body (`"/id"`), or an object naming the body's pointer or a header, with a
    /// pattern that picks a part of its text (`{"header": "Location", "pattern": "/items/([0-9]+)$"}`).
    mutating func decodeCaptures(_ field: Field?) -> [SetupStep.Capture] {
        var captures: [SetupStep.Capture] = []
        if let captureField = field {
            if captureField.value.objectValue == nil {
                error("'capture' must be an object of variable names to JSON Pointers, found \(describe(captureField.value))",
                    at: captureField.pointer)
            }
            for (variable, member) in captureField.members {
                guard TemplateString.isVariableName(variable) else {
                    error("invalid capture variable name '\(variable)': names are letters, digits and '_', not starting with a digit",
                        at: member.pointer, atKey: true)
                    continue
                }
                if member.value.objectValue != nil {
                    if let capture = decodeCaptureSource(member, variable: variable) { captures.append(capture) }
                    continue
                }
                guard let pointer = bodyPointer(member, variable: variable) else { continue }
                captures.append(SetupStep.Capture(variable: variable, pointer: pointer))
            }
        }
        return captures
    }

    private mutating func bodyPointer(_ field: Field, variable: String) -> JSONPointer? {
        guard let text = field.value.stringValue, let pointer = try? JSONPointer(parsing: text) else {
            error("capture '\(variable)' must be a JSON Pointer into the response body such as \"/id\", found \(describe(field.value))",
                at: field.pointer)
            return nil
        }
        return pointer
    }

    /// `{"body": "/links/next", "pattern": "cursor=([^&]+)"}` or `{"header": "ETag"}`.
    private mutating func decodeCaptureSource(_ field: Field, variable: String) -> SetupStep.Capture? {
        guard let fields = object(field, "capture '\(variable)'", allowed: ["body", "header", "pattern"]) else { return nil }
        let source: SetupStep.Capture.Source
        switch (fields["body"], fields["header"]) {
        case (let body?, nil):
            guard let pointer = bodyPointer(body, variable: variable) else { return nil }
            source = .body(pointer)
        case (nil, let header?):
            guard let name = string(header, "header") else { return nil }
            guard Self.isHeaderName(name) else {
                error("capture '\(variable)': '\(name)' is not a header name", at: header.pointer)
                return nil
            }
            source = .header(name)
        default:
            error("capture '\(variable)' needs exactly one of 'body' (a JSON Pointer) and 'header' (a header's name)", at: field.pointer)
            return nil
        }
        var pattern: String?
        if let patternField = fields["pattern"] {
            guard let text = regularExpression(patternField) else { return nil }
            pattern = text
        }
        return SetupStep.Capture(variable: variable, source: source, pattern: pattern)
    }
}
