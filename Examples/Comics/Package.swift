// swift-tools-version: 6.1
import PackageDescription

// The Comics reference app, in the layout every app here shares (decision
// 0053): features (Features/*) with small ports, their views a front end
// at a time (Views/*), the ports' live side (Services/*) over storage
// (Persistence/*) and AppSupport's infrastructure, the web host's
// configuration (Web), an xkcd-compatible fixture server for tests and
// offline use, and a thin injector (App, the `comics` program).
// Dependency rules: Documentation/Decisions and Examples/Comics/README.md;
// `Scripts/check-dependencies.sh` checks them in CI.
let package = Package(
    name: "Comics",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "comics", targets: ["ComicsApp"])
    ],
    dependencies: [
        .package(name: "Oak", path: "../.."),
        .package(name: "AppSupport", path: "../../AppSupport"),
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
        // Features (UI-free: no front end's library): domain types,
        // transducer, port (with its mock), intents.
        .target(
            name: "ComicsFeature",
            dependencies: [.product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport")],
            path: "Features/Comics"),
        .target(
            name: "FavouritesFeature",
            dependencies: [.product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport")],
            path: "Features/Favourites"),
        .target(
            name: "ComicsMain",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
                "ComicsFeature", "FavouritesFeature",
            ],
            path: "Features/Main"),
        // Views: one module a front end, one file a feature.
        .target(
            name: "ComicsTerminal",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
                .product(name: "TerminalUI", package: "AppSupport"), "ComicsFeature", "FavouritesFeature",
                "ComicsMain",
            ],
            path: "Views/Terminal"),
        .target(
            name: "ComicsWebViews",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
                .product(name: "WebUI", package: "AppSupport"), "ComicsFeature", "FavouritesFeature", "ComicsMain",
            ],
            path: "Views/Web"),
        .target(
            name: "ComicsSwiftUI",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
                "ComicsFeature", "FavouritesFeature", "ComicsMain",
            ],
            path: "Views/SwiftUI"),
        // Services: the ports' live side, over xkcd's API (DTOs and
        // endpoint paths, no domain types) and AppSupport's HTTP client.
        .target(name: "API", path: "Services/API"),
        .target(
            name: "Services",
            dependencies: [
                "ComicsFeature", "FavouritesFeature", "API", "Persistence",
                .product(name: "Common", package: "AppSupport"), .product(name: "HTTPClient", package: "AppSupport"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Services/Live"),
        // Persistence: favourites in SQLite through GRDB, and in PostgreSQL
        // shared by several server processes (postgres-nio through
        // AppSupport's PostgresSupport).
        .target(
            name: "Persistence",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "SQLiteSupport", package: "AppSupport"),
            ],
            path: "Persistence/SQLite"),
        .target(
            name: "PostgresPersistence",
            dependencies: [
                "Persistence", .product(name: "PostgresSupport", package: "AppSupport"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Persistence/Postgres"),
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
        // host (AppSupport's WebHost), built from the web views.
        .target(
            name: "ComicsWeb",
            dependencies: [
                .product(name: "Oak", package: "Oak"), .product(name: "WebHost", package: "AppSupport"),
                .product(name: "WebUI", package: "AppSupport"), "ComicsMain", "ComicsFeature", "FavouritesFeature",
                "ComicsWebViews",
            ],
            path: "Web"),
        // The injector: options, adapters, start.
        .executableTarget(
            name: "ComicsApp",
            dependencies: [
                .product(name: "Oak", package: "Oak"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AppCommands", package: "AppSupport"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Common", package: "AppSupport"), .product(name: "TerminalUI", package: "AppSupport"),
                .product(name: "HTTPClient", package: "AppSupport"), .product(name: "WebHost", package: "AppSupport"),
                "ComicsFeature", "FavouritesFeature", "ComicsMain", "ComicsTerminal", "Services", "Persistence",
                "PostgresPersistence", .product(name: "PostgresSupport", package: "AppSupport"), "FixtureServer",
                "ComicsWeb", .product(name: "OakInspector", package: "Oak"),
            ],
            path: "App"),
        .testTarget(
            name: "ComicsFeatureTests",
            dependencies: [
                "ComicsFeature", .product(name: "OakTesting", package: "Oak"),
                .product(name: "OakInspector", package: "Oak"),
                .product(name: "Oak", package: "Oak"), .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/ComicsFeatureTests"),
        .testTarget(
            name: "FavouritesFeatureTests",
            dependencies: [
                "FavouritesFeature", .product(name: "OakTesting", package: "Oak"),
                .product(name: "Oak", package: "Oak"),
            ],
            path: "Tests/FavouritesFeatureTests"),
        .testTarget(
            name: "ComicsMainTests",
            dependencies: [
                "ComicsMain", "ComicsFeature", "FavouritesFeature", "ComicsTerminal", "ComicsWebViews",
                .product(name: "TerminalUI", package: "AppSupport"), .product(name: "WebUI", package: "AppSupport"),
                .product(name: "OakTesting", package: "Oak"), .product(name: "Oak", package: "Oak"),
            ],
            path: "Tests/ComicsMainTests"),
        .testTarget(
            name: "ServicesTests",
            dependencies: [
                "Services", "FixtureServer", "ComicsFeature", "FavouritesFeature", "API", "Persistence",
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
            name: "ComicsWebTests",
            dependencies: [
                "ComicsWeb", "ComicsMain", "ComicsFeature", "FavouritesFeature", "ComicsWebViews", "Services",
                "FixtureServer", "Persistence", .product(name: "WebHost", package: "AppSupport"),
                .product(name: "WebUI", package: "AppSupport"), .product(name: "WebTesting", package: "AppSupport"),
                .product(name: "Oak", package: "Oak"), .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/ComicsWebTests"),
        .testTarget(
            name: "ComicsAppTests",
            dependencies: [
                "ComicsApp", "FixtureServer", .product(name: "TerminalTesting", package: "AppSupport"),
                .product(name: "WebTesting", package: "AppSupport"),
                .product(name: "InspectorServer", package: "AppSupport"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresTesting", package: "AppSupport"),
                .product(name: "PostgresSupport", package: "AppSupport"),
            ],
            path: "Tests/ComicsAppTests"),
    ],
    swiftLanguageModes: [.v6]
)
