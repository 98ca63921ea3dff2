// W3a: W3 with `run` on an actor (as every host runs), next to a `Task {}`
// per step resuming a continuation awaited on that actor. Target: Oak ≤ 1.5
// × floor. The workload: Sources/Workloads/W3a.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(10_000)
    pairedBenchmark(
        "W3a", n: n, iterations: 100,
        [
            Contender("floor") { blackHole(await W3aWorkload().floor(n: n)) },
            Contender("oak") { try await W3aWorkload().oak(n: n) },
        ])
}
