import ContractModel

/// What a `contract verify` run came to. Nothing was sent unless it ``finished``.
public enum VerifyOutcome: Sendable {
    /// An option is invalid; nothing was loaded.
    case invalidArguments(VerifyArgumentError)
    /// The contracts directory cannot be read, or its contracts have errors.
    case invalidContracts(InvalidContracts)
    /// The contracts name something this run does not have, or no case is selected.
    case invalidPlan(VerifyPlanError)
    /// Every selected case ran; the summary has the tally, its exit code, and the reports that
    /// could not be written.
    case finished(VerifySummary)
}

/// `contract verify` as one call: check the arguments, load the contracts, plan, run. The
/// executable declares the options, makes the console reporter (the terminal is its edge) and
/// maps the outcome to an exit code; everything else happens here.
public enum VerifyRun {
    /// - Parameters:
    ///   - environment: where `${env:…}` values come from.
    ///   - reporters: told of the run as well as the report files the arguments ask for (the
    ///     console, say), before them.
    public static func run(_ arguments: VerifyArguments, environment: [String: String], reporters: [any VerifyReporter] = []) async -> VerifyOutcome {
        let options: VerifyOptions
        let reports: [ReportRequest]
        do {
            options = try arguments.options(environment: environment)
            reports = try arguments.reportRequests()
        } catch {
            return .invalidArguments(arguments.baselinePath == nil ? error : masked(error, arguments, environment))
        }
        let plan: VerifyPlan
        switch loadAndPlan(arguments.directory, options) {
        case .planned(let planned): plan = planned
        case .stopped(let outcome): return outcome
        }
        return .finished(await Verifier.run(plan, reporters: reporters + reports.map { $0.reporter() }))
    }

    /// A refused baseline's messages quote what the file holds, which may be a token someone
    /// pasted: shown as every other text of a run is, with the secrets the run would have had (the
    /// values of the `${env:…}` variables the contracts and `--header`s use, credential headers,
    /// and the base URL's user information), found in the contracts as far as they load.
    private static func masked(_ error: VerifyArgumentError, _ arguments: VerifyArguments, _ environment: [String: String]) -> VerifyArgumentError {
        var variables: Set<String> = []
        if let set = try? ContractLoader.load(directory: arguments.directory) {
            for contract in set.contracts {
                for testCase in contract.cases { variables.formUnion(VerifyPlan.environmentVariables(contract, testCase)) }
            }
        }
        let headers = arguments.headers.compactMap { try? HeaderArgument.parse($0) }
        for header in headers { variables.formUnion(header.value?.environmentVariables ?? []) }
        let values = variables.compactMap { environment[$0] }
            + VerifyPlan.credentials(headers: headers, baseURL: arguments.baseURL, environment: environment)
        return VerifyArgumentError(Secrets(values).redact(error.message))
    }

    private enum Planning {
        case planned(VerifyPlan)
        case stopped(VerifyOutcome)
    }

    /// The load and plan stages. The loaded set, with every parsed contract document, is let go
    /// of when this returns: the run keeps only the plan, in far less memory.
    private static func loadAndPlan(_ directory: String, _ options: VerifyOptions) -> Planning {
        let set: ContractSet
        do {
            set = try ContractLoader.loadValid(directory: directory)
        } catch {
            return .stopped(.invalidContracts(error))
        }
        do {
            return .planned(try VerifyPlan(set, options: options))
        } catch {
            return .stopped(.invalidPlan(error))
        }
    }
}
