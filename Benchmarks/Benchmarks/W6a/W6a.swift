// W6a: W6 with `run` on an actor (as every host runs): latency of one event
// until its `update` has run on the actor, next to a value handed to a task
// parked on that actor. Each iteration sends one block of events to each side
// (order alternating).
// Target: Oak ≤ 1.5 × floor, at p50 and p99. The workload:
// Sources/Workloads/W6a.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let samples = Suite.isSmoke ? 50 : 500
    let labels = ["floor", "oak"]
    let latency = labels.map { Harness.metric($0 + "LatencyNs") }
    let mallocs = labels.map { Harness.metric($0 + "Mallocs") }
    Benchmark(
        Harness.name("W6a", n: samples),
        configuration: Harness.configuration(
            iterations: 60, metrics: [.wallClock, .mallocCountTotal] + latency + mallocs)
    ) { benchmark in
        let first = benchmark.currentIteration % labels.count
        for offset in 0..<labels.count {
            let index = (first + offset) % labels.count
            let mallocs0 = MallocCounter.count()
            let record = { (value: Int) in benchmark.measurement(latency[index], value) }
            if labels[index] == "oak" {
                try await W6aWorkload.oak(samples: samples, record: record)
            } else {
                await W6aWorkload.floor(samples: samples, record: record)
            }
            if let mallocs0, let mallocs1 = MallocCounter.count() {
                benchmark.measurement(mallocs[index], mallocs1 - mallocs0)
            }
        }
    }
}
