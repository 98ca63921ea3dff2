// W1b: W1 with the default buffer (8), sender and `run` interleaved on one
// actor, next to the same with a minimal mutex queue of the same capacity.
// Target: Oak ≤ 3 × floor. The workload: Sources/Workloads/W1b.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(1_000_000)
    pairedBenchmark(
        "W1b", n: n, iterations: 60,
        [
            Contender("floor") { blackHole(await W1bWorkload().floor(n: n)) },
            Contender("oak") { try await W1bWorkload().oak(n: n) },
        ])
}
