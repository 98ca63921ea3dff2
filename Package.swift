// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Oak",
    platforms: [
        .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9),
    ],
    products: [
        .library(name: "Oak", targets: ["Oak"]),
        .executable(name: "oak-counter", targets: ["CounterDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    ],
    targets: [
        .target(
            name: "Oak",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        .executableTarget(
            name: "CounterDemo",
            dependencies: ["Oak"],
            path: "Examples/CounterDemo"
        ),
        .testTarget(
            name: "OakTests",
            dependencies: [
                "Oak",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // Written only in Oak's spellings (Oak 0.34's client API), one file
        // per area: a later change that breaks code written against Oak
        // fails here. Kept apart from the contract tests.
        .testTarget(
            name: "OakCompatibilityTests",
            dependencies: [
                "Oak",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
