// W3: N operation effects in sequence, each started by an event and answering
// with one `input.send`, next to a `Task {}` per step resuming a
// continuation. Target: Oak ≤ 1.3 × floor. Scaling check: N and 10 × N.
// The workload: Sources/Workloads/W3.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    for (n, iterations) in [(Suite.size(10_000), 200), (Suite.size(100_000), 20)] {
        pairedBenchmark(
            "W3", n: n, iterations: iterations,
            [
                Contender("floor") { blackHole(await W3Workload.floor(n: n)) },
                Contender("oak") { try await W3Workload.oak(n: n) },
            ])
    }
}
