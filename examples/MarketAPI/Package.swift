// swift-tools-version:6.1
import PackageDescription

// The example "open market" API that the contracts in ../../contracts describe. A package of its
// own, so that users of contract never fetch or build its server dependencies.
let package = Package(
    name: "MarketAPI",
    platforms: [.macOS(.v14)],
    dependencies: [
        // No default traits: swift-configuration is not needed here and would lengthen every build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "MarketAPI",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
