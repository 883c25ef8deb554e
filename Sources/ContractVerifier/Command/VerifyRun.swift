import ContractJSON
import ContractModel

/// `contract verify` as one call: check the arguments, load the contracts, plan, run. The
/// executable declares the options, makes the console reporter (the terminal is its edge) and
/// prints the result; everything else happens here. Nothing was sent unless the result has a
/// summary.
public enum VerifyRun {
    /// - Parameters:
    ///   - environment: where `${env:…}` values come from.
    ///   - reporters: told of the run as well as the report files the arguments ask for (the
    ///     console, say), before them.
    public static func run(_ arguments: VerifyArguments, environment: [String: String], reporters: [any VerifyReporter] = []) async -> CommandResult<VerifySummary> {
        let options: VerifyOptions
        let reports: [VerifyReportRequest]
        do {
            options = try arguments.options(environment: environment)
            reports = try arguments.reportRequests()
        } catch {
            return .refused(arguments.baselinePath == nil ? error : masked(error, arguments, environment))
        }
        let set: ContractSet
        do {
            set = try ContractLoader.loadValid(directory: arguments.directory)
        } catch {
            return .invalidContracts(error, directory: arguments.directory, consequence: "nothing was sent")
        }
        let plan: VerifyPlan
        do {
            plan = try VerifyPlan(set, options: options)
        } catch {
            return .stopped(error, consequence: "nothing was sent")
        }
        return .finished(await Verifier.run(plan, reporters: reporters + reports.map { $0.reporter() }))
    }

    /// A refused baseline's messages quote what the file holds, which may be a token someone
    /// pasted: shown as every other text of a run is, with the secrets the run would have had (the
    /// values of the `${env:…}` variables the contracts and `--header`s use, credential headers,
    /// and the base URL's user information), found in the contracts as far as they load.
    private static func masked(_ error: DiagnosticsError, _ arguments: VerifyArguments, _ environment: [String: String]) -> DiagnosticsError {
        var variables: Set<String> = []
        if let set = try? ContractLoader.load(directory: arguments.directory) {
            for contract in set.contracts {
                for testCase in contract.cases { variables.formUnion(VerifyPlan.environmentVariables(contract, testCase)) }
            }
        }
        let headers = arguments.headers.compactMap { try? HeaderArgument.parse($0) }
        for header in headers { variables.formUnion(header.value?.environmentVariables ?? []) }
        let secrets = Secrets(variables.compactMap { environment[$0] } + VerifyPlan.credentials(headers: headers, baseURL: arguments.baseURL, environment: environment))
        // The message quotes values; the pointer, member names.
        var masked = error
        for index in masked.diagnostics.indices {
            masked.diagnostics[index].message = secrets.redact(masked.diagnostics[index].message)
            if let pointer = masked.diagnostics[index].pointer { masked.diagnostics[index].pointer = JSONPointer(tokens: pointer.tokens.map(secrets.redact)) }
        }
        return masked
    }
}

extension CommandResult where Summary == VerifySummary {
    /// A run that went through (verify's, or merge's put back together): its exit code, or 2 when
    /// a report could not be written, each such report said.
    static func finished(_ summary: VerifySummary) -> CommandResult {
        let unwritten = summary.reporterErrors.map { Diagnostic.argumentError($0) }
        return CommandResult(exitCode: unwritten.isEmpty ? summary.exitCode : 2, summary: summary, diagnostics: unwritten)
    }
}
