// W1: a pure Transducer counter; N events enqueued through the proxy, then
// processed by `run` until terminal, next to floor (a) (a plain loop calling
// the non-inlined update) and floor (b) (a minimal mutex queue drained by one
// consumer task). Target: Oak ≤ 3 × (b). Scaling check: N and 10 × N.
// The workloads: Sources/Workloads/W1.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    for (n, iterations) in [(Suite.size(1_000_000), 60), (Suite.size(10_000_000), 8)] {
        pairedBenchmark(
            "W1", n: n, iterations: iterations,
            [
                Contender("floorA") { blackHole(W1Workload.floorA(n: n)) },
                Contender("floor") { blackHole(try await W1Workload.floorB(n: n)) },
                Contender("oak") { try await W1Workload.oak(n: n) },
            ])
    }
}
