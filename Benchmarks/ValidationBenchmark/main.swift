// Validation throughput on the shared benchmark data (see docs/PERFORMANCE.md):
//   ../shared/bench/reference.sh /tmp/contract-bench      # data + jsonschema-rs reference figures
//   swift run -c release ValidationBenchmark /tmp/contract-bench
// Prints parse-only MB/s, validate-only docs/s on pre-parsed values, parse+validate MB/s, and
// checks every verdict against docs.expected.jsonl (exit 1 on any disagreement).
// PROFILE=validate parses once and then only validates; PROFILE=parse only parses to tapes (each
// dropped, as verify does): for `perf record` or callgrind.
import ContractJSON
import ContractSchema
import Foundation

let directory = CommandLine.arguments.dropFirst().first ?? "/tmp/contract-bench"
let repeats = 3

func readLines(_ name: String) -> [[UInt8]] {
    guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
        FileHandle.standardError.write(Data("error: cannot read '\(directory)/\(name)'; run ../shared/bench/reference.sh \(directory) first\n".utf8))
        exit(2)
    }
    return Array(data).split(separator: UInt8(ascii: "\n")).map(Array.init)
}

func best(_ body: () -> Void) -> Double {
    var fastest = Double.infinity
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return fastest
}

let lines = readLines("docs.jsonl")
let expected = readLines("docs.expected.jsonl").map { line -> Bool in
    (try? JSONParser(tracksLocations: false).parse(line).value.objectValue?["valid"]?.boolValue) ?? nil ?? false
}
let bytes = Double(lines.reduce(0) { $0 + $1.count })
let megabytes = bytes / 1_000_000
let parser = JSONParser(tracksLocations: false)

guard let schemaBytes = FileManager.default.contents(atPath: directory + "/schema.json"),
    let schemaValue = try? parser.parse(Array(schemaBytes)).value
else {
    print("error: cannot read \(directory)/schema.json")
    exit(2)
}
let schema: JSONSchema
do {
    schema = try JSONSchema(schemaValue, uri: "file://\(directory)/schema.json")
} catch {
    print("error: the schema does not compile: \(error)")
    exit(2)
}

var documents: [JSONValue] = []
// PROFILE=validate: parse once, then only validate (for a profiler such as `perf record`).
if ProcessInfo.processInfo.environment["PROFILE"] == "validate" {
    documents = lines.map { (try? parser.parse($0).value) ?? .null }
    let tapes = documents.map(JSONTape.init)
    var valid = 0
    let rounds = Int(ProcessInfo.processInfo.environment["PROFILE_ROUNDS"] ?? "") ?? 10
    for _ in 0..<rounds { valid += tapes.count { schema.isValid($0) } }
    print("\(valid) valid")
    exit(0)
}
// PROFILE=parse: parse each document to a tape and drop it, round after round.
if ProcessInfo.processInfo.environment["PROFILE"] == "parse" {
    let rounds = Int(ProcessInfo.processInfo.environment["PROFILE_ROUNDS"] ?? "") ?? 10
    var entries = 0
    for _ in 0..<rounds {
        for line in lines { entries += (try? parser.parseTape(line))?.entries.count ?? 0 }
    }
    print("\(entries) entries")
    exit(0)
}
// ONLY=validate: the one figure `Benchmarks/run-all` compares with jsonschema-rs (validate-only on
// tapes, best of three), after checking every verdict; the other rows are left out to keep a pair
// of runs short.
if ProcessInfo.processInfo.environment["ONLY"] == "validate" {
    let tapes = lines.map { (try? parser.parseTape($0)) ?? JSONTape(.null) }
    let verdicts = tapes.map { schema.isValid($0) }
    let disagreeing = zip(verdicts, expected).count { $0 != $1 }
    var valid = 0
    let seconds = best { valid = tapes.count { schema.isValid($0) } }
    print("validate only (isValid):  \(Int(Double(lines.count) / seconds)) docs/s (\(valid) valid)")
    exit(disagreeing == 0 ? 0 : 1)
}
let parseTime = best {
    documents = lines.map { (try? parser.parse($0).value) ?? .null }
}
// The validator walks a flat tape of the document; "pre-parsed" means parsed into that form.
var tapes: [JSONTape] = []
let tapeTime = best {
    tapes = documents.map(JSONTape.init)
}
var verdicts: [Bool] = []
let validateTime = best {
    verdicts = tapes.map { schema.isValid($0) }
}
let valueTime = best {
    verdicts = documents.map { schema.isValid($0) }
}
let directTapeTime = best {
    tapes = lines.map { (try? parser.parseTape($0)) ?? JSONTape(.null) }
}
// As verify parses a body: to a tape that is dropped once used (the line above keeps all 10,000,
// which makes it measure fresh memory as much as parsing).
var entryCount = 0
let droppedTapeTime = best {
    entryCount = lines.reduce(0) { $0 + ((try? parser.parseTape($1))?.entries.count ?? 0) }
}
// What `contract verify` does with a body: bytes straight to a tape, then the verdict.
var directVerdicts: [Bool] = []
let bothTime = best {
    directVerdicts = lines.map { (try? parser.parseTape($0)).map(schema.isValid) ?? false }
}
precondition(directVerdicts == verdicts, "parsing straight to tapes changed a verdict")
var errorCount = 0
let errorsTime = best {
    errorCount = tapes.reduce(0) { $0 + schema.validate($1).errors.count }
}

let disagreements = zip(verdicts, expected).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
func figure(_ value: Double) -> String { String(format: "%.1f", value) }
print("documents:                \(lines.count) (\(figure(megabytes)) MB), \(verdicts.count { !$0 }) invalid")
print("parse only:               \(figure(megabytes / parseTime)) MB/s")
print("parse to values, to tapes: \(figure(megabytes / parseTime)) MB/s, then \(figure(megabytes / tapeTime)) MB/s")
print("validate only (isValid):  \(figure(Double(lines.count) / validateTime)) docs/s, \(figure(megabytes / validateTime)) MB/s (on tapes)")
print("validate a JSONValue:     \(figure(Double(lines.count) / valueTime)) docs/s (tape built per call)")
print("parse straight to tapes:  \(figure(megabytes / directTapeTime)) MB/s (all kept)")
print("  one at a time, dropped:  \(figure(megabytes / droppedTapeTime)) MB/s (\(entryCount) entries)")
print("parse + validate:         \(figure(megabytes / bothTime)) MB/s, \(figure(Double(lines.count) / bothTime)) docs/s (bytes to tape, verdict)")
print("validate, every error:    \(figure(Double(lines.count) / errorsTime)) docs/s (\(errorCount) errors)")
print("verdicts vs expected:     \(disagreements.isEmpty ? "all \(lines.count) agree" : "\(disagreements.count) disagree, first lines \(disagreements.prefix(10).map { $0 + 1 })")")
exit(disagreements.isEmpty ? 0 : 1)
