// W3b: N operation effects started at once, answers processed as they
// arrive, next to N tasks answering through one minimal queue. Target:
// Oak ≤ 1.3 × floor. The workload: Sources/Workloads/W3.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(10_000)
    pairedBenchmark(
        "W3b", n: n, iterations: 200,
        [
            Contender("floor") { blackHole(await W3bWorkload.floor(n: n)) },
            Contender("oak") { try await W3bWorkload.oak(n: n) },
        ])
}
