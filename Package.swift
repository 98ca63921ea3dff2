// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Oak",
    platforms: [
        .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9),
    ],
    products: [
        .library(name: "Oak", targets: ["Oak"]),
        .library(name: "OakTesting", targets: ["OakTesting"]),
        .library(name: "OakInspector", targets: ["OakInspector"]),
        .executable(name: "oak-counter", targets: ["CounterDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    ],
    targets: [
        .target(
            name: "Oak",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Atomics", package: "swift-atomics"),
            ],
            swiftSettings: [
                // Checks the run state machine's invariants after every
                // transition (EventChannelStateMachine.checkInvariants), as
                // swift-collections does with COLLECTIONS_INTERNAL_CHECKS.
                .define("OAK_INTERNAL_CHECKS", .when(configuration: .debug))
            ]
        ),
        // The test harness for transducers: an exhaustive tester of runs, a
        // tester of `update` alone with effects as data, session recording and
        // replay, state graphs and generated tests. Its failures work under
        // Swift Testing and XCTest alike (IssueReporting).
        .target(
            name: "OakTesting",
            dependencies: [
                "Oak",
                // A failing tester writes its run as an inspector recording.
                "OakInspector",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                // Links what IssueReporting needs to record failures in Swift
                // Testing and XCTest on Linux, so that a client's test target
                // needs nothing more than OakTesting.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // What a running app opts into to be watched (`oak-inspector`):
        // every run's records as plain values in a bounded buffer. Not in
        // `Oak`: an app that is not inspected links none of it.
        .target(
            name: "OakInspector",
            dependencies: [
                "Oak",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "OakInspectorFixtures",
            dependencies: ["Oak"],
            path: "Tests/OakInspectorFixtures"
        ),
        .testTarget(
            name: "OakInspectorTests",
            dependencies: ["Oak", "OakInspector", "OakTesting", "OakInspectorFixtures"]
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
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "PropertyBased", package: "swift-property-based"),
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
        .testTarget(
            name: "OakTestingTests",
            dependencies: [
                "Oak",
                "OakTesting",
                "OakInspector",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // Two files only: a transducer declared in one, its `Proxy` and
        // `Output` named in the other (a compiler pitfall, decision 0018).
        .testTarget(name: "OakCrossFileTests", dependencies: ["Oak"]),
        // Compiled as a new Xcode 26 app target is: every declaration on the
        // main actor by default, conformances of main-actor types isolated,
        // nonisolated async functions on the caller's actor. Transducers
        // declared this way must run.
        .testTarget(
            name: "OakMainActorDefaultTests",
            dependencies: ["Oak"],
            swiftSettings: [
                .unsafeFlags(["-default-isolation", "MainActor"]),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
