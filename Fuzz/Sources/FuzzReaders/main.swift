import ContractVerifier

/// One libFuzzer input, given to every reader of files `contract` takes from anyone: the report
/// reader of `contract merge` and `contract baseline`, and the baseline reader. A crash, a trap
/// or a hang is a finding; a refusal is the expected answer to most inputs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let report) = ShardReport.read(bytes, file: "fuzz.json") {
        // What merge does with a report read: put it together with itself as the whole run.
        _ = ShardMerge.merge([report])
    }
    _ = BaselineUpdate.make(report: bytes, reportFile: "fuzz.json", previous: nil, reason: "r", expires: "2027-01-31")
    if case .success(let baseline) = Baseline.parse(bytes, file: "fuzz.json") {
        _ = baseline.text
    }
    return 0
}
