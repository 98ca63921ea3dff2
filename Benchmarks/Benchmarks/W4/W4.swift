// W4: W1 with an output `Callback` receiving every output, next to W1 (Oak,
// no output) in the same iterations. Target: ≤ 1.2 × W1. The workload:
// Sources/Workloads/W1.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(1_000_000)
    pairedBenchmark(
        "W4", n: n, iterations: 60,
        [
            Contender("w1") { try await W1Workload.oak(n: n) },
            Contender("oak") { try await W1Workload.oak(n: n, callback: true) },
        ])
}
