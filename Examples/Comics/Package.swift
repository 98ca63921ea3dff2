// swift-tools-version: 6.1
import PackageDescription

// The Comics reference app: feature modules (Scenes/*) with small ports,
// adapters (Services) over infrastructure (API, HTTPClient, Persistence),
// a terminal front end (TerminalUI), an xkcd-compatible fixture server for
// tests and offline use, and a thin injector (App, the `comics` program).
// Dependency rules: Documentation/Decisions and Examples/Comics/README.md;
// `Scripts/check-dependencies.sh` checks them in CI.
let package = Package(
    name: "Comics",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "comics", targets: ["App"])
    ],
    dependencies: [
        .package(name: "Oak", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    ],
    targets: [
        // Tiny shared helpers only.
        .target(name: "Common", path: "Common"),
        // xkcd DTOs and endpoint paths; no domain types.
        .target(name: "API", path: "API"),
        // A thin async HTTP client (URLSession; decision in README).
        .target(name: "HTTPClient", path: "HTTPClient"),
        // Favourites in SQLite through GRDB.
        .target(
            name: "Persistence",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Persistence"),
        // ncursesw, through a system library target.
        .systemLibrary(
            name: "CNcurses", path: "CNcurses",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        // The allocator's heap statistics and trimming (glibc), for the web
        // server's idle sweep.
        .target(name: "CMemory", path: "CMemory"),
        // Terminal infrastructure: keys, drawing, resize, restore.
        .target(name: "TerminalUI", dependencies: ["CNcurses", "Common"], path: "TerminalUI"),
        // Web infrastructure: HTML that escapes what it interpolates, the
        // page shell, forms; no HTTP server and no feature.
        .target(name: "WebUI", dependencies: ["Common"], path: "WebUI"),
        // Features: domain types, transducer, port, views.
        .target(
            name: "ComicsScene",
            dependencies: [.product(name: "Oak", package: "Oak"), "Common", "TerminalUI", "WebUI"],
            path: "Scenes/Comics"),
        .target(
            name: "FavouritesScene",
            dependencies: [.product(name: "Oak", package: "Oak"), "Common", "TerminalUI", "WebUI"],
            path: "Scenes/Favourites"),
        .target(
            name: "MainScene",
            dependencies: [
                .product(name: "Oak", package: "Oak"), "Common", "TerminalUI", "WebUI", "ComicsScene",
                "FavouritesScene",
            ],
            path: "Scenes/Main"),
        // Adapters: the ports' live implementations.
        .target(
            name: "Services",
            dependencies: ["ComicsScene", "FavouritesScene", "API", "HTTPClient", "Persistence", "Common"],
            path: "Services"),
        // An xkcd-compatible server on loopback with a catalog of our own.
        .target(
            name: "FixtureServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), "API",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "FixtureServer"),
        // The web front end: a Hummingbird server hosting one Main run per
        // browser session; renders states with the scenes' web views and
        // turns requests into their intents. No feature logic.
        .target(
            name: "WebServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Oak", package: "Oak"),
                "Common", "WebUI", "MainScene", "ComicsScene", "FavouritesScene", "CMemory",
            ],
            path: "WebServer"),
        // The injector: options, adapters, start.
        .executableTarget(
            name: "App",
            dependencies: [
                .product(name: "Oak", package: "Oak"),
                .product(name: "OakTesting", package: "Oak"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                "Common", "TerminalUI", "ComicsScene", "FavouritesScene", "MainScene", "Services",
                "Persistence", "HTTPClient", "FixtureServer", "WebServer",
            ],
            path: "App"),
        .testTarget(
            name: "ComicsSceneTests",
            dependencies: [
                "ComicsScene", .product(name: "OakTesting", package: "Oak"),
                .product(name: "Oak", package: "Oak"), .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/ComicsSceneTests"),
        .testTarget(
            name: "FavouritesSceneTests",
            dependencies: [
                "FavouritesScene", .product(name: "OakTesting", package: "Oak"), .product(name: "Oak", package: "Oak"),
            ],
            path: "Tests/FavouritesSceneTests"),
        .testTarget(
            name: "MainSceneTests",
            dependencies: [
                "MainScene", "ComicsScene", "FavouritesScene", "TerminalUI",
                .product(name: "OakTesting", package: "Oak"), .product(name: "Oak", package: "Oak"),
            ],
            path: "Tests/MainSceneTests"),
        .testTarget(
            name: "ServicesTests",
            dependencies: [
                "Services", "FixtureServer", "ComicsScene", "FavouritesScene", "HTTPClient", "API", "Persistence",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/ServicesTests"),
        .testTarget(
            name: "FixtureServerTests",
            dependencies: ["FixtureServer", "API"],
            path: "Tests/FixtureServerTests"),
        .testTarget(
            name: "PersistenceTests",
            dependencies: ["Persistence"],
            path: "Tests/PersistenceTests"),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI"],
            path: "Tests/TerminalUITests"),
        .testTarget(
            name: "WebUITests",
            dependencies: ["WebUI"],
            path: "Tests/WebUITests"),
        .testTarget(
            name: "WebServerTests",
            dependencies: [
                "WebServer", "WebUI", "MainScene", "ComicsScene", "FavouritesScene", "Services", "FixtureServer",
                "Persistence", "HTTPClient",
                .product(name: "Oak", package: "Oak"), .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/WebServerTests"),
        .testTarget(
            name: "AppTests",
            dependencies: ["App", "FixtureServer"],
            path: "Tests/AppTests"),
    ],
    swiftLanguageModes: [.v6]
)
