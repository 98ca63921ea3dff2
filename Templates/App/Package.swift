// swift-tools-version: 6.1
import PackageDescription

// __Name__: an app on Oak and AppSupport. The feature (rules only) is below
// its views and its store; the program injects the store into the
// feature's port and runs a front end.
let package = Package(
    name: "__Name__",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Oak", path: "__OAK__"),
        .package(name: "AppSupport", path: "__OAK__/AppSupport"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The feature: a list, its rules and its port.
        .target(
            name: "__Name__Feature",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
            ],
            path: "Features/ItemList"),
        // How it looks in a terminal and in a browser.
        .target(
            name: "__Name__Views",
            dependencies: [
                "__Name__Feature", .product(name: "Oak", package: "Oak"),
                .product(name: "Common", package: "AppSupport"),
                .product(name: "TerminalUI", package: "AppSupport"),
                .product(name: "WebUI", package: "AppSupport"), .product(name: "WebHost", package: "AppSupport"),
            ],
            path: "Views"),
        // The port's adapter: the items in SQLite.
        .target(
            name: "__Name__Store",
            dependencies: [
                "__Name__Feature", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SQLiteSupport", package: "AppSupport"),
            ],
            path: "Persistence"),
        // The program: options, injection, front ends.
        .executableTarget(
            name: "__name__",
            dependencies: [
                "__Name__Feature", "__Name__Store", "__Name__Views",
                .product(name: "AppCommands", package: "AppSupport"),
                .product(name: "Common", package: "AppSupport"),
                .product(name: "TerminalUI", package: "AppSupport"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "App"),
        .testTarget(
            name: "__Name__FeatureTests",
            dependencies: [
                "__Name__Feature", .product(name: "OakTesting", package: "Oak"),
                .product(name: "Common", package: "AppSupport"),
            ],
            path: "Tests/FeatureTests"),
        .testTarget(
            name: "__Name__AppTests",
            dependencies: [
                "__name__", .product(name: "TerminalTesting", package: "AppSupport"),
                .product(name: "WebTesting", package: "AppSupport"),
            ],
            path: "Tests/AppTests"),
    ],
    swiftLanguageModes: [.v6]
)
