// The stand-ups of a process, one copy for every session: the provider runs
// once, as a `SharedRun`, and every run of the app that has these ports (each
// browser session of a server, the one terminal session) shows its state and
// sends it changes. The provider's proxy makes a sender wait for room rather
// than drop a change, so a burst of saves from many sessions is slowed, never
// lost. The run starts with the first session (loading the stand-ups then,
// not at launch) and ends with `close()`, once every change is durable.

import Common
import Foundation
import Models
import Oak

/// The stand-ups provider one process shares (``StandupsProvider``, run
/// once): its ``run`` is the one copy of the stand-ups every session shows.
public final class SharedStandups: Sendable {
    private let provider: LazySharedRun<StandupsProvider>

    /// The provider's run: read its state (observable), send it events.
    public var run: SharedRun<StandupsProvider> { provider.run }

    /// The stand-ups kept by `dependencies`, not loaded until a session
    /// attaches.
    public init(_ dependencies: StandupsProvider.Dependencies) {
        provider = LazySharedRun(
            SharedRun(initialState: StandupsProvider.State(), proxy: StandupsProvider.Proxy(bufferSize: 64)),
            env: dependencies, first: .load)
    }

    /// The provider's run, started (loading the stand-ups) by the first
    /// session that attaches.
    public func attach() -> SharedRun<StandupsProvider> {
        provider.attach()
    }

    /// Hands `change` to the provider, which writes it — in order with
    /// every session's changes, tried again until it is durable — once the
    /// stand-ups are loaded (the provider applies nothing before), and
    /// returns once it is durable (or the provider has ended). For what
    /// no session hands over, such as a meeting that ended with nobody
    /// watching.
    public func save(_ change: StandupChange) async {
        let run = attach()
        for await state in run.states where state.phase == .loaded {
            await run.proxy.send(.apply(change))
            break
        }
        for await state in run.states where !state.isPending(change) {
            break
        }
    }

    /// Whether `meeting` is among the saved meetings of `standup`, once
    /// the stand-ups are loaded (`false` when they cannot be).
    public func hasMeeting(_ meeting: UUID, of standup: Standup.ID) async -> Bool {
        let run = attach()
        for await state in run.states where state.phase != .idle && state.phase != .loading {
            return state.standups[id: standup]?.meetings[id: meeting] != nil
        }
        return false
    }

    /// Waits until every change is durable — the provider goes on trying
    /// a store that is away — at most `limit` on `clock`, then ends the
    /// provider's run. Returns the changes that were not durable by then,
    /// in order, for the caller to report (a stopping process cannot keep
    /// them): none when every change was written, or nothing was loaded.
    /// Call it once the sessions have ended; nothing to do when none
    /// attached.
    @discardableResult
    public func close(
        waitingAtMost limit: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) async -> [StandupChange] {
        guard provider.hasStarted else { return [] }
        let run = self.run
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await state in run.states where state.phase != .loaded || state.isSaved {
                    break
                }
            }
            group.addTask { try? await clock.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        let state = run.state
        let unsaved = state.phase == .loaded ? state.writing + state.queued : []
        await provider.close()
        return unsaved
    }
}
