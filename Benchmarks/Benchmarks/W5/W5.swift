// W5: N idle transducers, each `run` in its own task waiting for events, next
// to N tasks each waiting on a minimal queue: memory per instance while all
// wait, time until all wait, time until one event each has finished them.
// Targets: memory ≤ 1.2 × floor; start and finish ≤ 1.5 × floor. Both sides
// run in every iteration (order alternating); two more benchmarks hold one
// side only, for package-benchmark's peak resident memory of the process.
// The workload: Sources/Workloads/W5.swift.

import BenchHarness
import BenchSupport
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    let n = Suite.size(10_000)
    let sides: [(label: String, run: @Sendable (Int) async throws -> W5Workload.Sample)] = [
        ("floor", { try await W5Workload.floor(n: $0) }),
        ("oak", { try await W5Workload.oak(n: $0) }),
    ]
    let metrics = sides.map { side in W5Workload.Sample.quantities.map { Harness.metric(side.label + $0) } }
    Benchmark(
        Harness.name("W5", n: n),
        configuration: Harness.configuration(
            iterations: 60, metrics: [.wallClock, .mallocCountTotal] + metrics.flatMap { $0 })
    ) { benchmark in
        let first = benchmark.currentIteration % sides.count
        for offset in 0..<sides.count {
            let index = (first + offset) % sides.count
            let values = try await sides[index].run(n).values(n: n)
            for (metric, value) in zip(metrics[index], values) {
                benchmark.measurement(metric, value)
            }
        }
    }

    let memory = Harness.configuration(iterations: 3, metrics: [.peakMemoryResident, .mallocCountTotal])
    let hold: @Sendable () async -> Void = { try? await Task.sleep(for: .milliseconds(50)) }
    Benchmark(Harness.name("W5", "floor-peak", n: n), configuration: memory) { _ in
        _ = try await W5Workload.floor(n: n, holding: hold)
    }
    Benchmark(Harness.name("W5", "oak-peak", n: n), configuration: memory) { _ in
        _ = try await W5Workload.oak(n: n, holding: hold)
    }
}
