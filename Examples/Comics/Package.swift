// swift-tools-version: 6.1
import PackageDescription

// The Comics reference app: feature modules (Scenes/*) with small ports,
// adapters (Services) over infrastructure (API, Persistence, and AppSupport's
// HTTP client), the terminal and web front ends of AppSupport configured
// with the scenes' views, an xkcd-compatible fixture server for tests and
// offline use, and a thin injector (App, the `comics` program).
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
        .package(name: "AppSupport", path: "../AppSupport"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // xkcd DTOs and endpoint paths; no domain types.
        .target(name: "API", path: "API"),
        // Favourites in SQLite through GRDB.
        .target(
            name: "Persistence",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "SQLiteSupport", package: "AppSupport"),
            ],
            path: "Persistence"),
        // Favourites in PostgreSQL, shared by several server processes
        // (postgres-nio through AppSupport's PostgresSupport).
        .target(
            name: "PostgresPersistence",
            dependencies: [
                "Persistence", .product(name: "PostgresSupport", package: "AppSupport"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "PostgresPersistence"),
        // Features: domain types, transducer, port, views.
        .target(
            name: "ComicsScene",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
                .product(name: "TerminalUI", package: "AppSupport"), .product(name: "WebUI", package: "AppSupport"),
            ],
            path: "Scenes/Comics"),
        .target(
            name: "FavouritesScene",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
                .product(name: "TerminalUI", package: "AppSupport"), .product(name: "WebUI", package: "AppSupport"),
            ],
            path: "Scenes/Favourites"),
        .target(
            name: "MainScene",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
                .product(name: "TerminalUI", package: "AppSupport"), .product(name: "WebUI", package: "AppSupport"),
                "ComicsScene", "FavouritesScene",
            ],
            path: "Scenes/Main"),
        // Adapters: the ports' live implementations.
        .target(
            name: "Services",
            dependencies: [
                "ComicsScene", "FavouritesScene", "API", "Persistence",
                .product(name: "Common", package: "AppSupport"), .product(name: "HTTPClient", package: "AppSupport"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Services"),
        // An xkcd-compatible server on loopback with a catalog of our own.
        .target(
            name: "FixtureServer",
            dependencies: [
                "API", .product(name: "ServerSupport", package: "AppSupport"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "FixtureServer"),
        // The web front end: the app's configuration of the generic web
        // host (AppSupport's WebHost), built from the scenes' web views.
        .target(
            name: "WebServer",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "WebHost", package: "AppSupport"),
                .product(name: "WebUI", package: "AppSupport"), "MainScene", "ComicsScene", "FavouritesScene",
            ],
            path: "WebServer"),
        // The injector: options, adapters, start.
        .executableTarget(
            name: "App",
            dependencies: [
                .product(name: "Oak", package: "Oak"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AppCommands", package: "AppSupport"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Common", package: "AppSupport"), .product(name: "TerminalUI", package: "AppSupport"),
                .product(name: "HTTPClient", package: "AppSupport"), .product(name: "WebHost", package: "AppSupport"),
                "ComicsScene", "FavouritesScene", "MainScene", "Services", "Persistence", "PostgresPersistence",
                .product(name: "PostgresSupport", package: "AppSupport"), "FixtureServer", "WebServer",
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
                "MainScene", "ComicsScene", "FavouritesScene", .product(name: "TerminalUI", package: "AppSupport"),
                .product(name: "WebUI", package: "AppSupport"),
                .product(name: "OakTesting", package: "Oak"), .product(name: "Oak", package: "Oak"),
            ],
            path: "Tests/MainSceneTests"),
        .testTarget(
            name: "ServicesTests",
            dependencies: [
                "Services", "FixtureServer", "ComicsScene", "FavouritesScene", "API", "Persistence",
                .product(name: "HTTPClient", package: "AppSupport"), .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/ServicesTests"),
        .testTarget(
            name: "FixtureServerTests",
            dependencies: [
                "FixtureServer", "API", .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/FixtureServerTests"),
        .testTarget(
            name: "PersistenceTests",
            dependencies: [
                "Persistence", "PostgresPersistence", .product(name: "PostgresSupport", package: "AppSupport"),
                .product(name: "PostgresTesting", package: "AppSupport"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/PersistenceTests"),
        .testTarget(
            name: "WebServerTests",
            dependencies: [
                "WebServer", "MainScene", "ComicsScene", "FavouritesScene", "Services", "FixtureServer",
                "Persistence", .product(name: "WebHost", package: "AppSupport"),
                .product(name: "WebUI", package: "AppSupport"), .product(name: "WebTesting", package: "AppSupport"),
                .product(name: "Oak", package: "Oak"), .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/WebServerTests"),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "FixtureServer", .product(name: "TerminalTesting", package: "AppSupport"),
                .product(name: "WebTesting", package: "AppSupport"),
                .product(name: "PostgresTesting", package: "AppSupport"),
                .product(name: "PostgresSupport", package: "AppSupport"),
            ],
            path: "Tests/AppTests"),
    ],
    swiftLanguageModes: [.v6]
)
