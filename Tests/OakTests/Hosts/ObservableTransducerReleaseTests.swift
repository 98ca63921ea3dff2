import Clocks
import Foundation
import Oak
import Testing

/// Releasing hosts leaks nothing: no host outlives its last reference, every
/// run ends and calls its completion, every operation is cancelled, no run's
/// task remains, and resident memory returns to its baseline.
@Suite("ObservableTransducer host release", .serialized, .timeLimit(.minutes(5)))
@MainActor
struct ObservableTransducerHostReleaseTests {
    /// Hosts per test: enough to see a leak of any one of them (each is
    /// counted); the resident-memory child process makes more, for a
    /// measurable footprint. Every host's run is a main-actor task, so the
    /// in-process count is kept small enough not to starve the other suites
    /// that run on the main actor meanwhile.
    nonisolated static let hostCount = isMemoryChild ? 10_000 : 2_000

    /// Set in the child process that measures resident memory on its own.
    nonisolated static let isMemoryChild = ProcessInfo.processInfo.environment["OAK_HOST_MEMORY_CHILD"] == "1"

    /// Creates and releases `hostCount` hosts one after the other. Returns
    /// how many outlived their release. `completions` fires for every
    /// completion, `cancellations` for those with `CancellationError`;
    /// each run's environment holds a ``LifetimeToken`` made with `tokens`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    private static func createAndRelease(
        tokens: LifetimeCounter,
        completions: HostSignal,
        cancellations: HostSignal
    ) -> Int {
        var outlived = 0
        for _ in 0..<hostCount {
            var host: ObservableTransducer<HostProbe>? = ObservableTransducer(
                of: HostProbe.self, initialState: HostProbe.State(),
                env: HostProbe.env(token: LifetimeToken(tokens)),
                completion: { result in
                    if case .failure(let error) = result, error is CancellationError { cancellations.fire() }
                    completions.fire()
                })
            weak let released = host
            host = nil
            if released != nil { outlived += 1 }
        }
        return outlived
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func hostsCreatedAndReleasedInALoopLeakNothing() async {
        let tokens = LifetimeCounter()
        let completions = HostSignal()
        let cancellations = HostSignal()

        let outlived = Self.createAndRelease(tokens: tokens, completions: completions, cancellations: cancellations)

        // Every host is deinitialised as soon as it is released: no task or
        // closure holds it.
        #expect(outlived == 0)
        // Every run ends, cancelled by the host's deinit, and calls its
        // completion once.
        await completions.wait(untilFired: Self.hostCount)
        #expect(completions.count == Self.hostCount)
        #expect(cancellations.count == Self.hostCount)
        // Every run's task is gone: none holds its environment any more.
        #expect(tokens.count == 0)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func releasedHostsCancelEveryOperation() async throws {
        let tokens = LifetimeCounter()
        let effects = EffectLog()
        let completions = HostSignal()
        var hosts: [ObservableTransducer<HostProbe>] = []
        for _ in 0..<Self.hostCount {
            let env = HostProbe.Env(clock: TestClock(), effects: effects, token: LifetimeToken(tokens))
            let host = ObservableTransducer(
                of: HostProbe.self, initialState: HostProbe.State(), env: env,
                completion: { _ in completions.fire() })
            try host.send(.startIdle)
            hosts.append(host)
        }
        await effects.waitUntilStarted(count: Self.hostCount)
        weak let someHost = hosts.last

        hosts = []

        #expect(someHost == nil)
        await completions.wait(untilFired: Self.hostCount)
        let entries = effects.all
        #expect(entries.count { $0 == .started } == Self.hostCount)
        #expect(entries.count { $0 == .cancelled } == Self.hostCount)
        #expect(tokens.count == 0)
    }

    /// Runs ``residentMemoryOfReleasedHosts()`` in a child process, alone, so
    /// that no other test's allocations are measured. Not under a sanitizer,
    /// whose allocator keeps freed memory on purpose (the checks above still
    /// run there).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test(.enabled(if: !isMemoryChild && !isSanitized))
    nonisolated func residentMemoryReturnsToItsBaseline() async throws {
        try await runInChildProcess("residentMemoryOfReleasedHosts", environment: ["OAK_HOST_MEMORY_CHILD": "1"])
    }

    /// Creates and releases 10,000 hosts per round: after a first round that
    /// fills the allocator's pools, three more rounds (30,000 hosts) must
    /// not grow resident memory by more than 2 MiB; a leak of 70 bytes per
    /// host would.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test(.enabled(if: isMemoryChild))
    func residentMemoryOfReleasedHosts() async throws {
        let tokens = LifetimeCounter()
        func round() async {
            let completions = HostSignal()
            _ = Self.createAndRelease(tokens: tokens, completions: completions, cancellations: HostSignal())
            await completions.wait(untilFired: Self.hostCount)
        }
        await round()
        let baseline = try #require(residentMemory())

        for _ in 0..<3 { await round() }

        let growth = try #require(residentMemory()) - baseline
        #expect(growth < 2 << 20, "resident memory grew by \(growth) bytes over 30,000 released hosts")
        #expect(tokens.count == 0)
    }
}
