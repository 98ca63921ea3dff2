// W8: composition. N events routed through a parent to a child transducer
// and the child's output back to the parent, next to the same work in one
// flat transducer, in the same iterations. Target: composed ≤ 2 × flat.
// W8b, in the same iterations: the child embedded in the parent (its update
// called by the parent's).
// The workload: Sources/Workloads/W8.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(100_000)
    pairedBenchmark(
        "W8", n: n, iterations: 40,
        [
            Contender("flat") { blackHole(try await W8Workload.flat(n: n)) },
            Contender("oak") { blackHole(try await W8Workload.composed(n: n)) },
            Contender("embedded") { blackHole(try await W8Workload.embedded(n: n)) },
        ])
    pairedBenchmark(
        "W8a", n: n, iterations: 40,
        [
            Contender("flat") { blackHole(try await W8OnActor().flat(n: n)) },
            Contender("oak") { blackHole(try await W8OnActor().composed(n: n)) },
        ])
}
