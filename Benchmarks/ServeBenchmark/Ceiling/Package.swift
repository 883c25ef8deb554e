// swift-tools-version:6.1
import PackageDescription

// The ceiling for `contract serve`: the same SwiftNIO HTTP/1.1 pipeline answering with fixed
// bytes, no routing beyond one dictionary look-up, no checks, no journal. A package of its own so
// that the root package does not change; it asks for swift-nio as the root does, and
// ../run.sh checks that both resolve the same version.
let package = Package(
    name: "Ceiling",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        .executableTarget(
            name: "Ceiling",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ]
)
