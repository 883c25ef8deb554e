// swift-tools-version:6.1
import PackageDescription

// An app-side client of the example API whose unit tests run on fixtures generated from
// ../../contracts, served by ContractTesting: the tests cannot pass on a response shape the
// contracts (and so the server, checked by `contract verify`) no longer have.
let package = Package(
    name: "MarketClient",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [.library(name: "MarketClient", targets: ["MarketClient"])],
    dependencies: [.package(name: "contract", path: "../..")],
    targets: [
        .target(name: "MarketClient"),
        .testTarget(
            name: "MarketClientTests",
            dependencies: [
                "MarketClient", .product(name: "ContractTesting", package: "contract"),
                // The same fixtures over real HTTP, as a UI test serves them to the app it launches.
                .product(name: "ContractMockServer", package: "contract"),
            ],
            // `contract fixtures --out Tests/MarketClientTests/Fixtures ../../contracts` writes them.
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
