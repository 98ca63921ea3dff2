// swift-tools-version: 6.1
import PackageDescription

// The infrastructure every reference app plugs into, below its features:
// a terminal front end (ncursesw), the web vocabulary and a generic
// per-session web host (Hummingbird), an HTTP client, the start and stop of
// every HTTP server of the repository, and small common helpers. It knows
// no feature: the apps (Examples/Comics, Examples/Standups) depend on it,
// never the other way round (Scripts/check-dependencies.sh).
let package = Package(
    name: "AppSupport",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Common", targets: ["Common"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "WebUI", targets: ["WebUI"]),
        .library(name: "WebHost", targets: ["WebHost"]),
        .library(name: "AppCommands", targets: ["AppCommands"]),
        .library(name: "HTTPClient", targets: ["HTTPClient"]),
        .library(name: "ServerSupport", targets: ["ServerSupport"]),
        .library(name: "SQLiteSupport", targets: ["SQLiteSupport"]),
        .library(name: "PostgresSupport", targets: ["PostgresSupport"]),
        .library(name: "PostgresTesting", targets: ["PostgresTesting"]),
        // For tests only: programs in a real pseudo-terminal (tmux), and a
        // browser's side of a web server (HTTP, Server-Sent Events, headless
        // Chromium through WebDriver).
        .library(name: "TerminalTesting", targets: ["TerminalTesting"]),
        .library(name: "WebTesting", targets: ["WebTesting"]),
        .library(name: "InspectorServer", targets: ["InspectorServer"]),
        .executable(name: "oak-inspector", targets: ["oak-inspector"]),
    ],
    dependencies: [
        .package(name: "Oak", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // Small helpers every app uses: elapsed time on any clock, text made
        // safe to show, the data directory, a shared run started on demand.
        .target(name: "Common", dependencies: [.product(name: "Oak", package: "Oak")]),
        // ncursesw, through a system library target.
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        // The allocator's heap statistics and trimming (glibc).
        .target(name: "CMemory"),
        // The terminal: keys awaited as they come, drawing, resize, suspend
        // and resume, restore; a front end that hosts a root transducer.
        .target(
            name: "TerminalUI",
            dependencies: ["CNcurses", "Common", .product(name: "Oak", package: "Oak")]),
        // What every app's command shares: the options of its web server,
        // and options read from the environment as well as the command
        // line.
        .target(
            name: "AppCommands",
            dependencies: [
                "Common", "WebHost", "PostgresSupport", .product(name: "Oak", package: "Oak"),
                .product(name: "OakInspector", package: "Oak"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "AppCommandsTests",
            dependencies: ["AppCommands", "WebHost", "WebUI", "WebTesting", .product(name: "Oak", package: "Oak")]),
        // HTML that escapes what it interpolates, the page shell, forms.
        .target(name: "WebUI", dependencies: ["Common", .product(name: "Oak", package: "Oak")]),
        // A thin async HTTP client (URLSession).
        .target(name: "HTTPClient"),
        // Starts a Hummingbird application (WebSocket upgrades optional),
        // waits until it listens, stops it gracefully: for every HTTP server
        // of the repository.
        .target(
            name: "ServerSupport",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // A generic web host: one run of an app's root transducer per
        // browser session, rendered with the app's views and pushed to the
        // page; sessions, tokens, expiry, limits, security headers.
        .target(
            name: "WebHost",
            dependencies: [
                "Common", "WebUI", "ServerSupport", "CMemory",
                .product(name: "Oak", package: "Oak"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Test support, shared by the apps' tests: never linked into a
        // shipped program.
        // An app's SQLite file opened safely (damaged files refused
        // untouched, "busy" retried), for the apps' stores.
        .target(name: "SQLiteSupport", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // An app's PostgreSQL database, for the adapters several server
        // processes share (postgres-nio): its address, opening, migrations,
        // notifications that survive a lost connection.
        .target(
            name: "PostgresSupport",
            dependencies: [
                "Common", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The PostgreSQL server tests run against (OAK_TEST_POSTGRES), and
        // a database of its own for each test.
        .target(
            name: "PostgresTesting",
            dependencies: [
                "PostgresSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(name: "TerminalTesting"),
        .target(name: "WebTesting", dependencies: ["TerminalTesting"]),
        // `oak-inspector`: the server of the page that watches apps started
        // with `--inspect` (OakInspector's link), and its command.
        .target(
            name: "InspectorServer",
            dependencies: [
                "ServerSupport", "WebHost", .product(name: "OakInspector", package: "Oak"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "oak-inspector",
            dependencies: [
                "InspectorServer", "AppCommands", .product(name: "OakInspector", package: "Oak"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "CommonTests",
            dependencies: [
                "Common", .product(name: "Oak", package: "Oak"), .product(name: "Clocks", package: "swift-clocks"),
            ]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "CNcurses", "Common", .product(name: "Oak", package: "Oak")]),
        .testTarget(name: "WebUITests", dependencies: ["WebUI", .product(name: "Oak", package: "Oak")]),
        .testTarget(name: "TerminalTestingTests", dependencies: ["TerminalTesting"]),
        .testTarget(
            name: "SQLiteSupportTests", dependencies: ["SQLiteSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "PostgresSupportTests",
            dependencies: [
                "PostgresSupport", "PostgresTesting", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "HTTPClientTests",
            dependencies: [
                "HTTPClient", "ServerSupport", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ServerSupportTests",
            dependencies: [
                "ServerSupport", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(
            name: "InspectorServerTests",
            dependencies: [
                "InspectorServer", "WebTesting", .product(name: "Oak", package: "Oak"),
                .product(name: "OakInspector", package: "Oak"), .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "WebHostTests",
            dependencies: [
                "WebHost", "WebUI", "WebTesting", "TerminalTesting", "ServerSupport",
                .product(name: "Oak", package: "Oak"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
