// swift-tools-version:6.1
import PackageDescription

// The readers of files `contract` takes from anyone (merge's JSON reports, baselines), fuzzed
// with libFuzzer: its own package, so the harness never reaches the products users link
// (scripts/fuzz-readers builds and runs it).
let package = Package(
    name: "ContractFuzz",
    dependencies: [.package(name: "contract", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzReaders",
            dependencies: [.product(name: "ContractVerifier", package: "contract")]
        )
    ],
    swiftLanguageModes: [.v6]
)
