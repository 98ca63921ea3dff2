// W2: an EffectTransducer whose every update returns an action producing the
// next event, next to a loop awaiting a non-inlined async closure per step on
// the same actor. Target: Oak ≤ 0.5 × floor. The workload:
// Sources/Workloads/W2.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(100_000)
    pairedBenchmark(
        "W2", n: n, iterations: 200,
        [
            Contender("floor") { blackHole(await W2Workload().floor(n: n)) },
            Contender("oak") { try await W2Workload().oak(n: n) },
        ])
}
