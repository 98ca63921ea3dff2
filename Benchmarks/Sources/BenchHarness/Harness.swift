import BenchSupport
import Benchmark

/// Names, metrics and configurations of the suite's benchmarks.
public enum Harness {
    /// The name of one benchmark: `<workload> n=<items>`, or
    /// `<workload> <role> n=<items>`; `compare.py` parses it and divides
    /// per-iteration values by `n`.
    public static func name(_ workload: String, _ role: String? = nil, n: Int) -> String {
        if let role { return "\(workload) \(role) n=\(n)" }
        return "\(workload) n=\(n)"
    }

    /// A custom metric holding raw values (no unit scaling, no scaling factor).
    public static func metric(_ name: String) -> BenchmarkMetric {
        .custom(name, polarity: .prefersSmaller, useScalingFactor: false)
    }

    /// A configuration with nanosecond time units and raw counts, so that the
    /// exported samples are exact; `iterations` is the measured iteration
    /// count of a full run (1 in smoke mode, after no warm-up).
    public static func configuration(
        iterations: Int,
        metrics: [BenchmarkMetric],
        maxSeconds: Int = 30
    ) -> Benchmark.Configuration {
        var units: [BenchmarkMetric: BenchmarkUnits] = [:]
        for metric in metrics where metric != .wallClock && metric != .throughput {
            units[metric] = .count
        }
        return .init(
            metrics: metrics,
            timeUnits: .nanoseconds,
            units: units,
            warmupIterations: Suite.isSmoke ? 0 : 1,
            scalingFactor: .one,
            maxDuration: .seconds(Suite.isSmoke ? 1 : maxSeconds),
            maxIterations: Suite.isSmoke ? 1 : iterations
        )
    }
}

/// One side of a paired benchmark: the floor, Oak, or a reference.
public struct Contender: Sendable {
    /// Names the side's metrics: `<label>Ns`, `<label>Mallocs`.
    public let label: String
    let body: @Sendable () async throws -> Void

    /// A side named `label` whose work is `body`.
    public init(_ label: String, _ body: @escaping @Sendable () async throws -> Void) {
        self.label = label
        self.body = body
    }
}

/// Registers one benchmark that, in every iteration, runs each contender
/// once (the order rotating from one iteration to the next) and records per
/// contender its wall-clock nanoseconds and malloc calls as custom metrics.
/// Oak and its floor thus see the same machine load; `compare.py` divides by
/// `n` to read per item.
///
/// package-benchmark's own `wallClock` of such a benchmark covers all
/// contenders together; its `mallocCountTotal` is requested so that the
/// malloc interposer counts during the iteration.
public func pairedBenchmark(_ workload: String, n: Int, iterations: Int, _ contenders: [Contender]) {
    let timeMetrics = contenders.map { Harness.metric("\($0.label)Ns") }
    let mallocMetrics = contenders.map { Harness.metric("\($0.label)Mallocs") }
    let configuration = Harness.configuration(
        iterations: iterations, metrics: [.wallClock, .mallocCountTotal] + timeMetrics + mallocMetrics)
    Benchmark(Harness.name(workload, n: n), configuration: configuration) { benchmark in
        let first = benchmark.currentIteration % contenders.count
        for offset in 0..<contenders.count {
            let index = (first + offset) % contenders.count
            let mallocs = MallocCounter.count()
            let started = monotonicNanos()
            try await contenders[index].body()
            let elapsed = monotonicNanos() &- started
            benchmark.measurement(timeMetrics[index], Int(elapsed))
            if let before = mallocs, let after = MallocCounter.count() {
                benchmark.measurement(mallocMetrics[index], after - before)
            }
        }
    }
}
