// Runs one side of one workload, without package-benchmark, for profilers:
//
//     swift build --package-path Benchmarks -c release --product OakProfile
//     valgrind --tool=callgrind Benchmarks/.build/release/OakProfile w3 oak 2000
//
// `w1i` is W1 with the live inspector (OakInspector) attached and its
// entries read as they come; `w1s` with it attached and never read (a
// stalled inspector: its ring buffer drops the oldest).
//
// Usage: OakProfile <w1|w1i|w1s|w1b|w2|w2a|w3|w3a|w3b|w4|w5|w6|w6a|w7|w8|w8a|w8b> <oak|floor|floorA> [n] [repeat]

import BenchSupport
import Oak
import OakInspector
import Workloads

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print(
        "usage: OakProfile <w1|w1i|w1s|w1b|w2|w2a|w3|w3a|w3b|w4|w5|w6|w6a|w7|w8|w8a|w8b> <oak|floor|floorA> [n] [repeat]"
    )
    exit(2)
}
let workload = arguments[1]
let side = arguments[2]
let n = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
let repeats = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1

func runOnce() async throws {
    switch (workload, side) {
    case ("w1", "floorA"): _ = W1Workload.floorA(n: n)
    case ("w1", "floor"): _ = try await W1Workload.floorB(n: n)
    case ("w1", "oak"): try await W1Workload.oak(n: n)
    case ("w1i", "oak"):
        let inspector = LiveInspector()
        let reader = Task { for await _ in inspector.batches {} }
        try await TransducerInspection.$inspector.withValue(inspector) { try await W1Workload.oak(n: n) }
        inspector.close()
        await reader.value
    case ("w1s", "oak"):
        let inspector = LiveInspector()
        try await TransducerInspection.$inspector.withValue(inspector) { try await W1Workload.oak(n: n) }
    case ("w4", "oak"): try await W1Workload.oak(n: n, callback: true)
    case ("w1b", "floor"): _ = await W1bWorkload().floor(n: n)
    case ("w1b", "oak"): try await W1bWorkload().oak(n: n)
    case ("w2", "floor"): _ = await W2Workload().floor(n: n)
    case ("w2", "oak"): try await W2Workload().oak(n: n)
    case ("w2a", "floor"): _ = try await W2aWorkload().floor(n: n)
    case ("w2a", "oak"): try await W2aWorkload().oak(n: n)
    case ("w3a", "floor"): _ = await W3aWorkload().floor(n: n)
    case ("w3a", "oak"): try await W3aWorkload().oak(n: n)
    case ("w6a", "floor"): await W6aWorkload.floor(samples: n) { _ in }
    case ("w6a", "oak"): try await W6aWorkload.oak(samples: n) { _ in }
    case ("w7", "floor"): _ = W7Workload.update(n: n)
    case ("w7", "oak"): await W7Workload.tester(n: n)
    case ("w8", "floor"): _ = try await W8Workload.flat(n: n)
    case ("w8", "oak"): _ = try await W8Workload.composed(n: n)
    case ("w8b", "oak"): _ = try await W8Workload.embedded(n: n)
    case ("w8a", "floor"): _ = try await W8OnActor().flat(n: n)
    case ("w8a", "oak"): _ = try await W8OnActor().composed(n: n)
    case ("w3", "floor"): _ = await W3Workload.floor(n: n)
    case ("w3", "oak"): try await W3Workload.oak(n: n)
    case ("w3b", "floor"): _ = await W3bWorkload.floor(n: n)
    case ("w3b", "oak"): try await W3bWorkload.oak(n: n)
    case ("w5", "floor"): print(try await W5Workload.floor(n: n).values(n: n))
    case ("w5", "oak"): print(try await W5Workload.oak(n: n).values(n: n))
    case ("w6", "floor"): await W6Workload.floor(samples: n) { _ in }
    case ("w6", "oak"): try await W6Workload.oak(samples: n) { _ in }
    default:
        print("unknown workload or side: \(workload) \(side)")
        exit(2)
    }
}

let started = monotonicNanos()
for _ in 0..<repeats {
    try await runOnce()
}
let elapsed = Double(monotonicNanos() - started)
print("\(workload) \(side) n=\(n) ×\(repeats): \(elapsed / Double(n * repeats)) ns per item")
