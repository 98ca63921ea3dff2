// W7: one asserted step of OakTesting's TransducerTester, next to one plain
// call of the same update. Target: at most 20 µs per asserted step. The
// workload: Sources/Workloads/W7.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(2_000)
    pairedBenchmark(
        "W7", n: n, iterations: 50,
        [
            Contender("update") { blackHole(W7Workload.update(n: n)) },
            Contender("tester") { await W7Workload.tester(n: n) },
        ])
}
