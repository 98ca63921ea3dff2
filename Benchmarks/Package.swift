// swift-tools-version: 6.1
import PackageDescription

// Oak's benchmark suite: workloads W1–W6, each measured next to its
// plain-Swift floor in the same iterations (see README.md). One
// package-benchmark executable per workload under Benchmarks/<id>/.
// Run with `make bench` or `python3 Benchmarks/compare.py`.

let workloads = ["W1", "W1b", "W2", "W2a", "W3", "W3a", "W3b", "W4", "W5", "W6", "W6a", "W7", "W8"]

let package = Package(
    name: "OakBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Oak", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // Floors and helpers: a pthread-mutex queue (the kind of lock Oak
        // uses), a one-slot mailbox, a countdown, clocks and memory probes.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "Oak", package: "Oak"),
                .product(name: "DequeModule", package: "swift-collections"),
                "CBenchSupport",
            ]
        ),
        .target(name: "CBenchSupport"),
        // W1–W6: Oak's side and the floor's side of every workload.
        .target(
            name: "Workloads",
            dependencies: [
                "BenchSupport", .product(name: "Oak", package: "Oak"),
                .product(name: "OakTesting", package: "Oak"),
            ]
        ),
        // Paired registration with package-benchmark.
        .target(
            name: "BenchHarness",
            dependencies: ["BenchSupport", .product(name: "Benchmark", package: "benchmark")]
        ),
        // One workload side without package-benchmark, for profilers.
        // `w1i` / `w1s`: W1 with the live inspector attached, read / stalled.
        .executableTarget(
            name: "OakProfile",
            dependencies: [
                "Workloads", "BenchSupport", .product(name: "Oak", package: "Oak"),
                .product(name: "OakInspector", package: "Oak"),
            ]
        ),
    ]
        + workloads.map { id in
            .executableTarget(
                name: id,
                dependencies: [
                    "Workloads", "BenchHarness", "BenchSupport",
                    .product(name: "Benchmark", package: "benchmark"),
                ],
                path: "Benchmarks/\(id)",
                plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
            )
        },
    swiftLanguageModes: [.v6]
)
