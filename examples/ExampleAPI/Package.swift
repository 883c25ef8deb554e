// swift-tools-version:6.1
import PackageDescription

// The example marketplace API: a small server that implements the contracts in ../../contracts,
// with a `--drift` switch that makes it break them on purpose. A package of its own, with no
// dependency on the contract tool, so that the tool's users never fetch or build server code.
let package = Package(
    name: "ExampleAPI",
    platforms: [.macOS(.v14)],
    dependencies: [
        // No default traits: swift-configuration is not used here and would only lengthen builds.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Already in the graph through Hummingbird; named here because main sends logs to stderr.
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "ExampleAPI",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
