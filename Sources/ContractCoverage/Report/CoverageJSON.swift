import ContractJSON

/// The JSON report: everything the join found, for tools (a dashboard, a check of its own). Keys
/// in a fixed order; every list whole (the other formats cut theirs).
///
/// `{"format": "contract-coverage", "version": 1, "contracts": …, "sources": {…}, "totals": {…},
///   "gate": {"failOn": […], "minUsed": 80, "passed": false, "gaps": […]}, "cases": […],
///   "unmatched": […], "staleUsage": {…}, "operations": […]}`
enum CoverageJSON {
    static let version = 1

    static func render(_ result: CoverageResult, gate: CoverageGate) -> String {
        var members: [JSONObject.Member] = [
            .init(key: "format", value: "contract-coverage"), .init(key: "version", value: .number(JSONNumber(version))),
            .init(key: "contracts", value: .string(result.contractsDirectory)), .init(key: "sources", value: sources(result.sources)),
            .init(key: "totals", value: totals(result)), .init(key: "gate", value: gateValue(result, gate: gate)),
            .init(key: "cases", value: .array(result.cases.map(caseValue))),
        ]
        if result.sources.hasUsage {
            members.append(.init(key: "unmatched", value: .array(result.unmatched.map(unmatchedValue))))
            members.append(.init(key: "staleUsage", value: .object(JSONObject(result.staleUsage.sorted { $0.key < $1.key }.map {
                .init(key: $0.key, value: .number(JSONNumber($0.value)))
            }))))
        }
        if let operations = result.operations {
            members.append(.init(key: "operations", value: .array(operations.map(operationValue))))
            members.append(.init(key: "contractsOffDocument", value: strings(result.contractsOffDocument)))
        }
        return CanonicalJSONWriter(style: .pretty, sortsKeys: false).string(.object(JSONObject(members)))
    }

    private static func sources(_ sources: CoverageResult.Sources) -> JSONValue {
        var members: [JSONObject.Member] = []
        if sources.hasUsage {
            members.append(.init(key: "usage", value: object([
                ("folders", strings(sources.usageFolders)), ("files", number(sources.usageFiles)), ("tests", number(sources.tests)),
                ("requests", number(sources.requests)),
            ])))
        }
        if sources.hasReport {
            var fields: [(String, JSONValue)] = [("reports", strings(sources.verifyReports))]
            if let baseURL = sources.baseURL { fields.append(("baseURL", .string(baseURL))) }
            members.append(.init(key: "verify", value: object(fields)))
        }
        if let document = sources.document { members.append(.init(key: "openapi", value: .string(document))) }
        return .object(JSONObject(members))
    }

    private static func totals(_ result: CoverageResult) -> JSONValue {
        let totals = result.totals
        var fields: [(String, JSONValue)] = [("contracts", number(totals.contracts)), ("cases", number(totals.cases))]
        if result.sources.hasUsage {
            fields += [
                ("used", number(totals.used)), ("invalidRequests", number(totals.invalidRequests)),
                ("unmatchedRequests", number(totals.unmatchedRequests)), ("relaxedRequests", number(totals.relaxedRequests)),
            ]
        }
        if result.sources.hasReport {
            fields += [("passed", number(totals.passed)), ("failed", number(totals.failed)), ("noResponse", number(totals.errors)), ("notRun", number(totals.notRun))]
        }
        if result.sources.hasUsage, result.sources.hasReport {
            fields += [("usedAndPassed", number(totals.usedAndPassed)), ("usedNotPassed", number(totals.usedNotPassed))]
        }
        if result.sources.hasDocument {
            fields += [
                ("operations", number(totals.operations)), ("coveredOperations", number(totals.coveredOperations)),
                ("responses", number(totals.responses)), ("coveredResponses", number(totals.coveredResponses)),
            ]
        }
        return object(fields)
    }

    private static func gateValue(_ result: CoverageResult, gate: CoverageGate) -> JSONValue {
        var fields: [(String, JSONValue)] = [("failOn", strings(gate.failOn.map(\.rawValue).sorted()))]
        if let minimum = gate.minimumUsedPercent { fields.append(("minUsed", number(minimum))) }
        fields.append(("passed", .bool(result.gaps.isEmpty)))
        fields.append(("gaps", .array(result.gaps.map { gap in
            var members: [(String, JSONValue)] = [("rule", .string(gap.rule))]
            if let subject = gap.subject { members.append(("subject", .string(subject))) }
            members.append(("message", .string(gap.message)))
            return object(members)
        })))
        return object(fields)
    }

    private static func caseValue(_ row: CaseCoverage) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(row.id)), ("contract", .string(row.contractID)), ("case", .string(row.caseName)), ("method", .string(row.method)),
            ("path", .string(row.path)), ("status", .string(row.status)), ("file", .string(row.file)),
        ]
        if let usage = row.usage {
            fields.append(("usage", object([
                ("requests", number(usage.requests)), ("invalid", number(usage.invalid)), ("relaxed", number(usage.relaxed)),
                ("tests", strings(usage.tests)), ("violations", strings(usage.violations)),
            ])))
        }
        if let verification = row.verification {
            let value: JSONValue
            switch verification {
            case .passed: value = object([("outcome", "passed")])
            case .failed(let findings): value = object([("outcome", "failed"), ("findings", strings(findings))])
            case .error(let what): value = object([("outcome", "error"), ("error", .string(what))])
            case .notRun: value = object([("outcome", "not-run")])
            }
            fields.append(("verification", value))
        }
        return object(fields)
    }

    private static func unmatchedValue(_ group: CoverageResult.Unmatched) -> JSONValue {
        var fields: [(String, JSONValue)] = [("method", .string(group.method)), ("path", .string(group.path))]
        if let nearest = group.nearest { fields.append(("nearest", .string(nearest))) }
        if let reason = group.reason { fields.append(("reason", .string(reason))) }
        fields += [("requests", number(group.requests)), ("relaxed", number(group.relaxed)), ("tests", strings(group.tests))]
        return object(fields)
    }

    private static func operationValue(_ operation: OperationCoverage) -> JSONValue {
        var fields: [(String, JSONValue)] = [("method", .string(operation.method)), ("path", .string(operation.path))]
        if let id = operation.operationID { fields.append(("operationId", .string(id))) }
        fields += [
            ("file", .string(operation.file)), ("line", number(operation.line)), ("column", number(operation.column)),
            ("contracts", strings(operation.contracts)),
            ("responses", .array(operation.responses.map { object([("key", .string($0.key)), ("cases", strings($0.cases))]) })),
        ]
        return object(fields)
    }

    private static func object(_ fields: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(fields.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    private static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }

    private static func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
}
