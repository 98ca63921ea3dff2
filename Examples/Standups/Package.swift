// swift-tools-version: 6.1
import PackageDescription

// The Standups reference app (seed 004's Scrumdinger re-implementation, in
// Oak), in the layout every app here shares (decision 0053): Models (the
// domain's values), Features (transducers and their ports, no front end's
// library), Views (one module a front end, one file a feature), Services
// (ports shared by features, with their live and mock values, and the
// devices' adapters), Persistence (SQLite, PostgreSQL), Web (the web host's
// configuration) and the injector (App, the `standups` program). Decision
// 0027 maps seed 004's vocabulary onto it; README.md has the layout and the
// rules.
let package = Package(
    name: "Standups",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "standups", targets: ["StandupsApp"])
    ],
    dependencies: [
        .package(name: "Oak", path: "../.."),
        .package(name: "AppSupport", path: "../../AppSupport"),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // Models: the domain's values, no behaviour beyond their rules.
        .target(
            name: "Models",
            dependencies: [.product(name: "IdentifiedCollections", package: "swift-identified-collections")],
            path: "Models"),
        // Persistence: the store, SQLite through GRDB (an adapter: knows only the
        // models).
        .target(
            name: "StandupsStore",
            dependencies: [
                "Models", "Devices", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SQLiteSupport", package: "AppSupport"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
            ],
            path: "Persistence/SQLite"),
        // Services: the stand-ups provider (a run of its own), and the
        // devices' ports (speech, sound), each with its mock.
        .target(
            name: "StandupsProvider",
            dependencies: [
                "Models", .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
            ],
            path: "Services/StandupsProvider"),
        .target(name: "Devices", dependencies: ["Models"], path: "Services/Devices"),
        // Services: the providers' live dependencies, over the adapters.
        .target(
            name: "LiveProviders",
            dependencies: ["Models", "StandupsProvider", "StandupsStore", "SpeechRecognizer", "Devices"],
            path: "Services/Live"),
        // Persistence: the stand-ups provider's dependencies over PostgreSQL, for several
        // server processes sharing one database (an adapter, like the
        // SQLite store), and where each stand-up's meetings run.
        .target(
            name: "PostgresStandups",
            dependencies: [
                "Models", "StandupsProvider", "Devices", .product(name: "PostgresSupport", package: "AppSupport"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
            ],
            path: "Persistence/Postgres"),
        // Services: the speech recogniser, pocketsphinx offline (an adapter:
        // loads the library at run time; "restricted" where it is missing).
        // No pkg-config: it would link the library, and a program built
        // where it is installed would not start without it (decision 0047).
        .systemLibrary(name: "CPocketsphinx", path: "Services/CPocketsphinx"),
        .target(name: "SpeechRecognizer", dependencies: ["CPocketsphinx"], path: "Services/SpeechRecognizer"),
        // Features. The form (embedded by the list and the
        // detail).
        .target(
            name: "StandupForm",
            dependencies: [
                "Models", .product(name: "Oak", package: "Oak"), .product(name: "Common", package: "AppSupport"),
            ],
            path: "Features/StandupForm"),
        // The list, and a stand-up's screen.
        .target(
            name: "StandupsList",
            dependencies: ["Models", "StandupForm", .product(name: "Oak", package: "Oak")],
            path: "Features/StandupsList"),
        .target(
            name: "StandupDetail",
            dependencies: ["Models", "Devices", "StandupForm", .product(name: "Oak", package: "Oak")],
            path: "Features/StandupDetail"),
        // The meeting.
        .target(
            name: "RecordMeeting",
            dependencies: ["Models", "Devices", .product(name: "Oak", package: "Oak")],
            path: "Features/RecordMeeting"),
        // The meetings in progress, one run each, shared by their viewers.
        .target(
            name: "MeetingRooms",
            dependencies: [
                "Models", "Devices", "RecordMeeting", "StandupsProvider", .product(name: "Oak", package: "Oak"),
                .product(name: "Common", package: "AppSupport"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Features/MeetingRooms"),
        // The root: navigation, the provider, quitting.
        .target(
            name: "StandupsMain",
            dependencies: [
                "Models", "Devices", "MeetingRooms", "StandupsProvider", "StandupsList", "StandupDetail",
                "RecordMeeting", .product(name: "Oak", package: "Oak"),
            ],
            path: "Features/Main"),
        // Views: the terminal's building blocks (cards, text fields,
        // progress, dialogs), rendering values only.
        .target(
            name: "Components",
            dependencies: [
                "Models", .product(name: "TerminalUI", package: "AppSupport"),
                .product(name: "Common", package: "AppSupport"),
            ],
            path: "Views/Components"),
        // The features' terminal views, in one target so that the features
        // themselves link no terminal library (their intents are
        // StandupsIntents', which every front end shares).
        .target(
            name: "StandupsTerminal",
            dependencies: [
                "StandupsMain", "StandupDetail", "RecordMeeting", "StandupsList", "StandupForm", "StandupsProvider",
                "StandupsIntents", "Models", "Components", .product(name: "Oak", package: "Oak"),
                .product(name: "TerminalUI", package: "AppSupport"), .product(name: "Common", package: "AppSupport"),
            ],
            path: "Views/Terminal"),
        // The intents of one state of the app, shared by the front ends
        // (terminal, SwiftUI): Oak and the features only.
        .target(
            name: "StandupsIntents",
            dependencies: [
                "StandupsMain", "StandupDetail", "RecordMeeting", "Models", .product(name: "Oak", package: "Oak"),
            ],
            path: "Views/Intents"),
        // The features' SwiftUI views (Apple platforms; empty elsewhere,
        // type-checked on Linux by Tools/SwiftUICheck).
        .target(
            name: "StandupsSwiftUI",
            dependencies: [
                "StandupsMain", "StandupDetail", "RecordMeeting", "StandupForm", "StandupsIntents", "Models",
                .product(name: "Oak", package: "Oak"),
            ],
            path: "Views/SwiftUI"),
        // The features' web views (HTML, forms that post intents by name).
        .target(
            name: "StandupsWebViews",
            dependencies: [
                "StandupsMain", "RecordMeeting", "StandupDetail", "StandupForm", "StandupsIntents", "StandupsList",
                "StandupsProvider", "Models", .product(name: "Oak", package: "Oak"),
                .product(name: "WebUI", package: "AppSupport"),
            ],
            path: "Views/Web"),
        // The web front end: the generic web host configured for the app.
        .target(
            name: "StandupsWeb",
            dependencies: [
                "StandupsMain", "Devices", "StandupsIntents", "StandupsWebViews", .product(name: "Oak", package: "Oak"),
                .product(name: "WebHost", package: "AppSupport"), .product(name: "WebUI", package: "AppSupport"),
            ],
            path: "Web"),
        // The injector: options, adapters, start.
        .executableTarget(
            name: "StandupsApp",
            dependencies: [
                "StandupsMain", "Devices", "LiveProviders", "Models", "RecordMeeting", "SpeechRecognizer",
                "StandupDetail", "StandupsProvider", "StandupsStore", "StandupsTerminal", "StandupsWeb",
                "PostgresStandups",
                .product(name: "PostgresSupport", package: "AppSupport"),
                .product(name: "WebHost", package: "AppSupport"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AppCommands", package: "AppSupport"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Common", package: "AppSupport"), .product(name: "TerminalUI", package: "AppSupport"),
            ],
            path: "App"),
        // What the tests share: a manual clock whose sleeps are awaited.
        .target(
            name: "StandupsTestSupport",
            dependencies: [
                "SpeechRecognizer", .product(name: "Oak", package: "Oak"), .product(name: "OakTesting", package: "Oak"),
                .product(name: "TerminalTesting", package: "AppSupport"),
            ],
            path: "Tests/Support"),
        .testTarget(
            name: "StandupsStoreTests",
            dependencies: [
                "StandupsStore", "LiveProviders", "StandupsProvider", "Models", "Devices",
                .product(name: "Oak", package: "Oak"), "PostgresStandups",
                .product(name: "PostgresSupport", package: "AppSupport"),
                .product(name: "PostgresTesting", package: "AppSupport"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "TerminalTesting", package: "AppSupport"),
            ],
            path: "Tests/StandupsStoreTests"),
        .testTarget(
            name: "ModelsTests",
            dependencies: ["Models", .product(name: "IdentifiedCollections", package: "swift-identified-collections")],
            path: "Tests/ModelsTests"),
        .testTarget(
            name: "StandupFormTests",
            dependencies: [
                "StandupForm", "Models", .product(name: "Common", package: "AppSupport"),
                .product(name: "Oak", package: "Oak"), .product(name: "OakTesting", package: "Oak"),
            ],
            path: "Tests/StandupFormTests"),
        .testTarget(
            name: "StandupsListTests",
            dependencies: [
                "StandupsList", "StandupForm", "Models", .product(name: "Oak", package: "Oak"),
                .product(name: "OakTesting", package: "Oak"),
            ],
            path: "Tests/StandupsListTests"),
        .testTarget(
            name: "StandupDetailTests",
            dependencies: [
                "StandupDetail", "StandupForm", "Models", "Devices", "StandupsTestSupport",
                .product(name: "Oak", package: "Oak"), .product(name: "OakTesting", package: "Oak"),
            ],
            path: "Tests/StandupDetailTests"),
        .testTarget(
            name: "StandupsMainTests",
            dependencies: [
                "StandupsMain", "Models", "Devices", "StandupsProvider", "StandupDetail", "StandupForm",
                "RecordMeeting",
                .product(name: "Oak", package: "Oak"), .product(name: "OakTesting", package: "Oak"),
                .product(name: "Clocks", package: "swift-clocks"), "StandupsTestSupport",
            ],
            path: "Tests/StandupsMainTests"),
        .testTarget(
            name: "StandupsProviderTests",
            dependencies: [
                "StandupsProvider", "Models", .product(name: "Oak", package: "Oak"),
                .product(name: "OakTesting", package: "Oak"), .product(name: "Clocks", package: "swift-clocks"),
                "StandupsTestSupport",
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
            ],
            path: "Tests/StandupsProviderTests"),
        .testTarget(
            name: "RecordMeetingTests",
            dependencies: [
                "RecordMeeting", "Models", "Devices", .product(name: "Oak", package: "Oak"),
                .product(name: "OakTesting", package: "Oak"), .product(name: "Clocks", package: "swift-clocks"),
                "StandupsTestSupport",
            ],
            path: "Tests/RecordMeetingTests"),
        .testTarget(
            name: "StandupsTerminalTests",
            dependencies: [
                "StandupsTerminal", "StandupsIntents", "StandupsMain", "Devices", "Models", "RecordMeeting",
                "StandupDetail", "StandupsProvider", .product(name: "Oak", package: "Oak"),
                .product(name: "OakTesting", package: "Oak"), .product(name: "TerminalUI", package: "AppSupport"),
            ],
            path: "Tests/StandupsTerminalTests"),
        .testTarget(
            name: "SpeechRecognizerTests",
            dependencies: [
                "SpeechRecognizer", "LiveProviders", "Devices", "StandupsTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/SpeechRecognizerTests"),
        // End to end: the `standups` program in tmux.
        .testTarget(
            name: "StandupsAppTests",
            dependencies: [
                "StandupsApp", "StandupsTestSupport", .product(name: "TerminalTesting", package: "AppSupport"),
                "Models", "PostgresStandups", "StandupsStore", .product(name: "WebTesting", package: "AppSupport"),
                .product(name: "PostgresTesting", package: "AppSupport"),
                .product(name: "PostgresSupport", package: "AppSupport"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "InspectorServer", package: "AppSupport"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/StandupsAppTests"),
        // The web front end over real HTTP on loopback.
        .testTarget(
            name: "StandupsWebTests",
            dependencies: [
                "StandupsWeb", "StandupsWebViews", "StandupsMain", "Devices", "LiveProviders", "Models",
                "RecordMeeting", "StandupDetail", "StandupsProvider", "StandupsStore", "StandupsTestSupport",
                "StandupsIntents", "StandupsTerminal", .product(name: "Oak", package: "Oak"),
                .product(name: "OakTesting", package: "Oak"), .product(name: "TerminalUI", package: "AppSupport"),
                .product(name: "WebHost", package: "AppSupport"),
                .product(name: "WebTesting", package: "AppSupport"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "TerminalTesting", package: "AppSupport"),
            ],
            path: "Tests/StandupsWebTests"),
        .testTarget(
            name: "MeetingRoomsTests",
            dependencies: [
                "MeetingRooms", "Models", "RecordMeeting", "Devices", "StandupsProvider", "StandupsTestSupport",
                .product(name: "Oak", package: "Oak"),
            ],
            path: "Tests/MeetingRoomsTests"),
    ],
    swiftLanguageModes: [.v6]
)
