// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way: ContractJSON <- ContractSchema <- ContractModel <- {ContractVerifier
// (-> ContractHTTP -> libcurl), ContractFixtures, ContractOpenAPI (-> Yams)} <- contract (the executable); ContractTesting, for
// users' test targets, depends on Foundation alone (docs/ARCHITECTURE.md). Benchmarks, test
// helpers and the examples (their own packages under examples/) never reach the products.
let package = Package(
    name: "contract",
    // ContractTesting is used from app test targets on every Apple platform; its newest API is
    // `Duration` (macOS 13, iOS 16, tvOS 16, watchOS 9). The command-line tool is built for Linux and macOS.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "contract", targets: ["contract"]),
        .library(name: "ContractJSON", targets: ["ContractJSON"]),
        .library(name: "ContractSchema", targets: ["ContractSchema"]),
        .library(name: "ContractModel", targets: ["ContractModel"]),
        .library(name: "ContractHTTP", targets: ["ContractHTTP"]),
        .library(name: "ContractVerifier", targets: ["ContractVerifier"]),
        .library(name: "ContractFixtures", targets: ["ContractFixtures"]),
        .library(name: "ContractTesting", targets: ["ContractTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `contract import openapi` only: YAML documents.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(name: "ContractJSON"),
        .target(name: "ContractSchema", dependencies: ["ContractJSON"]),
        .target(name: "ContractModel", dependencies: ["ContractJSON", "ContractSchema"]),
        // libcurl (libcurl4-openssl-dev on Debian and Ubuntu); only ContractHTTP imports it.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .target(name: "ContractHTTP", dependencies: ["CCurl"]),
        // Output folders a command owns part of: all-or-nothing changes, no path leaves them.
        .target(name: "ContractFiles"),
        .target(name: "ContractFixtures", dependencies: ["ContractModel", "ContractSchema", "ContractJSON", "ContractFiles"]),
        // For users' test targets: Foundation only (no libcurl, no test framework).
        .target(name: "ContractTesting"),
        // OpenAPI 3.0/3.1 documents (YAML or JSON) to contracts, read leniently: what a document
        // gets wrong becomes a warning at its line, and only what it touches is left out.
        .target(
            name: "ContractOpenAPI",
            dependencies: [
                "ContractJSON", "ContractSchema", "ContractModel", "ContractFiles", "ContractFixtures",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "ContractVerifier", dependencies: ["ContractModel", "ContractSchema", "ContractJSON", "ContractHTTP"]),
        .executableTarget(
            name: "contract",
            dependencies: [
                "ContractModel",
                "ContractVerifier",
                "ContractFixtures",
                "ContractHTTP",
                "ContractOpenAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Prints validation throughput on the shared benchmark data (docs/PERFORMANCE.md).
        .executableTarget(
            name: "ValidationBenchmark",
            dependencies: ["ContractSchema", "ContractJSON"],
            path: "Benchmarks/ValidationBenchmark"
        ),
        // ContractHTTP alone, for the verify benchmark (Benchmarks/VerifyBenchmark/run.sh).
        .executableTarget(
            name: "HTTPClientBenchmark", dependencies: ["ContractHTTP", "ContractJSON", "ContractSchema"], path: "Benchmarks/HTTPClientBenchmark"),
        // Test-only helpers (finding ../shared); not part of any product.
        .target(name: "TestSupport", dependencies: ["ContractJSON"], path: "Tests/Support"),
        .testTarget(name: "ContractJSONTests", dependencies: ["ContractJSON", "TestSupport"]),
        .testTarget(name: "ContractSchemaTests", dependencies: ["ContractSchema", "ContractJSON", "TestSupport"]),
        .testTarget(
            name: "ContractModelTests",
            dependencies: ["ContractModel", "ContractSchema", "ContractJSON", "TestSupport"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "ContractFixturesTests", dependencies: ["ContractFixtures", "ContractModel", "ContractSchema", "ContractJSON", "TestSupport"],
            exclude: ["Golden"]
        ),
        .testTarget(name: "ContractTestingTests", dependencies: ["ContractTesting", "ContractFixtures", "ContractModel", "TestSupport"]),
        .testTarget(name: "ContractHTTPTests", dependencies: ["ContractHTTP", "TestSupport"]),
        .testTarget(name: "ContractFilesTests", dependencies: ["ContractFiles"]),
        .testTarget(
            name: "ContractVerifierTests", dependencies: ["ContractVerifier", "ContractHTTP", "ContractModel", "ContractJSON", "TestSupport"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "ContractOpenAPITests", dependencies: ["ContractOpenAPI", "ContractFixtures", "ContractModel", "ContractJSON", "TestSupport"],
            exclude: ["Golden", "Documents"]
        ),
        .testTarget(name: "contractTests", dependencies: ["contract", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
