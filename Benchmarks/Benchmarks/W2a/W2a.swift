// W2a: an async action (`Effect(action:)`) per step with `run` on an actor,
// next to awaiting the same kind of `@isolated(any)` closure on that actor.
// Target: Oak ≤ 1.5 × floor. The workload: Sources/Workloads/W2a.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(20_000)
    pairedBenchmark(
        "W2a", n: n, iterations: 100,
        [
            Contender("floor") { blackHole(try await W2aWorkload().floor(n: n)) },
            Contender("oak") { try await W2aWorkload().oak(n: n) },
        ])
}
