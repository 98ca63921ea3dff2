// swift-tools-version: 6.1
// CI-only package: type-checks Oak's SwiftUI adapter (Sources/Oak/SwiftUI),
// the README's SwiftUI snippets, the Comics app's SwiftUI views
// (Examples/Comics/Views/SwiftUI) and the Standups app's
// (Examples/Standups/Views/SwiftUI) on Linux, where SwiftUI does not exist,
// against a minimal stand-in module named `SwiftUI` (Sources/SwiftUI).
// Nothing here is run. Build it with
//
//     swift build --package-path Tools/SwiftUICheck -Xswiftc -warnings-as-errors
//
// `Sources/Oak` is a symbolic link to the library's sources, compiled here as
// module `Oak` with the stand-in as a dependency, so `#if canImport(SwiftUI)`
// holds and the adapter compiles inside Oak exactly as on Apple platforms.
// Likewise `Sources/ComicsSwiftUI` and `Sources/StandupsSwiftUI` are
// symbolic links to the apps' SwiftUI views, whose code compiles only here
// on Linux, and the other links to the modules those views depend on: the
// apps' features (UI-free, decision 0053), their intents, and the models
// and ports below them (no adapter), and AppSupport's `Common`. Keep the
// dependencies of the `Oak` target in step with ../../Package.swift, and
// those of the others with ../../Examples/Comics/Package.swift,
// ../../Examples/Standups/Package.swift and
// ../../AppSupport/Package.swift.
// Linux only: on Apple platforms the stand-in would shadow the real SwiftUI.
import PackageDescription

let package = Package(
    name: "SwiftUICheck",
    platforms: [
        .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    ],
    targets: [
        // The stand-in for Apple's SwiftUI.
        .target(name: "SwiftUI"),
        // Oak's sources, SwiftUI adapter included.
        .target(
            name: "Oak",
            dependencies: [
                "SwiftUI",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // The README's SwiftUI snippets, verbatim. Two targets because the
        // README reuses the names `CounterView` and `ContentView`.
        .target(name: "ReadmeSnippets", dependencies: ["Oak", "SwiftUI"]),
        .target(name: "ReadmeSnippetsObservable", dependencies: ["Oak", "SwiftUI"]),
        // The SwiftUI sample of the DocC article "Hosting a transducer".
        .target(name: "ArticleSnippets", dependencies: ["Oak", "SwiftUI"]),
        // `TransducerView` in every spelling of code written against Oak 0.34.
        .target(name: "OakSpellingViews", dependencies: ["Oak", "SwiftUI"]),
        // The Comics app's SwiftUI views, and the modules they depend on (as
        // in Examples/Comics/Package.swift, plus SwiftUI).
        .target(name: "Common", dependencies: ["Oak"]),
        .target(name: "ComicsFeature", dependencies: ["Oak", "Common"]),
        .target(name: "FavouritesFeature", dependencies: ["Oak", "Common"]),
        .target(name: "ComicsMain", dependencies: ["Oak", "Common", "ComicsFeature", "FavouritesFeature"]),
        .target(
            name: "ComicsSwiftUI",
            dependencies: ["Oak", "Common", "ComicsFeature", "FavouritesFeature", "ComicsMain", "SwiftUI"]),
        // The Standups app's SwiftUI views, and the modules they depend on (as in Examples/Standups/Package.swift, plus
        // SwiftUI).
        .target(
            name: "Models",
            dependencies: [.product(name: "IdentifiedCollections", package: "swift-identified-collections")]),
        .target(name: "Devices", dependencies: ["Models"]),
        .target(
            name: "StandupsProvider",
            dependencies: [
                "Models", "Oak", "Common",
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
            ]),
        .target(name: "StandupForm", dependencies: ["Models", "Oak", "Common"]),
        .target(name: "StandupsList", dependencies: ["Models", "StandupForm", "Oak"]),
        .target(name: "StandupDetail", dependencies: ["Models", "Devices", "StandupForm", "Oak"]),
        .target(name: "RecordMeeting", dependencies: ["Models", "Devices", "Oak"]),
        .target(name: "MeetingRooms", dependencies: ["Models", "RecordMeeting", "StandupsProvider", "Oak"]),
        .target(
            name: "StandupsMain",
            dependencies: [
                "Models", "Devices", "MeetingRooms", "StandupsProvider", "StandupsList", "StandupDetail",
                "RecordMeeting",
                "Oak",
            ]),
        .target(
            name: "StandupsIntents", dependencies: ["StandupsMain", "StandupDetail", "RecordMeeting", "Models", "Oak"]),
        .target(
            name: "StandupsSwiftUI",
            dependencies: [
                "StandupsMain", "StandupDetail", "RecordMeeting", "StandupForm", "StandupsIntents", "Models", "Oak",
                "SwiftUI",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
