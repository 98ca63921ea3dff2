// The stand-ups provider (seed 004's ScrumProvider): one run that owns the
// stand-ups for every feature. It loads them, applies each change at once
// (the screens show it), writes the changes in order, one batch at a time
// (changes made while a batch is written are coalesced into the next one),
// says when everything is saved, and after a failure stops writing and
// tries again by itself — after 1, 2, 4 … at most 30 seconds on its clock —
// or when asked sooner (a database that was away is written to once it is
// back; nobody has to press anything), and takes the changes others made (another web session, another
// process) from its dependencies' updates. Features send it changes and
// observe its state; its dependencies are the store's port, `live()` built
// by the injector from the SQLite adapter, `mock()` in memory.

import Foundation
import IdentifiedCollections
import Models
import Oak

/// The StandupsProvider transducer.
public enum StandupsProvider: EffectTransducer {
    /// Whether the stand-ups are there.
    public enum Phase: Equatable, Hashable, Sendable {
        /// Not loaded yet.
        case idle
        /// Loading.
        case loading
        /// Loaded: ``State/standups`` is the list.
        case loaded
        /// Loading failed. A store that is away (locked, busy,
        /// unreachable) is tried again by itself, and when asked
        /// (``Event/retryLoad``); only a damaged one offers to start over
        /// (empty, or with the samples), and it is kept aside.
        case failed(StoreFailure)
    }

    /// The provider's state.
    public struct State: NonTerminal, Equatable, Hashable, Sendable {
        /// Whether the stand-ups are there.
        public var phase: Phase
        /// The stand-ups, every change applied (saved or not yet).
        public var standups: IdentifiedArrayOf<Standup>
        /// Changes applied and not yet handed to the store.
        public var queued: [StandupChange]
        /// The batch the store is writing now.
        public var writing: [StandupChange]
        /// Why the last write failed, if it did: writing stops until
        /// ``Event/retry``, which the provider sends itself after a while
        /// (``StandupsProvider/retryDelay(after:)``).
        public var failure: StoreFailure?
        /// How many writes in a row failed (0 after a write succeeds).
        public var failedWrites: Int
        /// How many loads in a row failed (0 once loaded).
        public var failedLoads: Int
        /// What edits found changed elsewhere when they were written (the
        /// edit's values kept, the others' named), by stand-up, until
        /// dismissed (``Event/dismissConflicts(_:)``): the stand-up's
        /// screen says so.
        public var conflicts: [Standup.ID: [StandupConflict]]

        /// Nothing loaded yet.
        public init(phase: Phase = .idle, standups: IdentifiedArrayOf<Standup> = []) {
            self.phase = phase
            self.standups = standups
            self.queued = []
            self.writing = []
            self.failure = nil
            self.failedWrites = 0
            self.failedLoads = 0
            self.conflicts = [:]
        }

        /// Whether every change is durable.
        public var isSaved: Bool { queued.isEmpty && writing.isEmpty }

        /// Whether `change` is not yet durable.
        public func isPending(_ change: StandupChange) -> Bool {
            queued.contains(change) || writing.contains(change)
        }
    }

    /// What happens to the provider.
    public enum Event: Equatable, Sendable {
        /// Load the stand-ups and follow others' changes.
        case load
        /// The store's stand-ups.
        case loaded([Standup])
        /// The store could not be read.
        case loadFailed(StoreFailure)
        /// Apply a change and save it.
        case apply(StandupChange)
        /// The store wrote the batch in flight.
        case wrote
        /// Edits of the batch in flight found these changed elsewhere (sent
        /// before ``wrote``).
        case conflicted([EditConflict])
        /// The stand-up's screen has shown its conflicts: forget them.
        case dismissConflicts(Standup.ID)
        /// The store could not write the batch in flight; nothing of it was
        /// written.
        case writeFailed(StoreFailure)
        /// Try the failed write again (the provider sends it itself after
        /// ``StandupsProvider/retryDelay(after:)``; a user may send it
        /// sooner).
        case retry
        /// After a failed load of a store that is away: load again (the
        /// provider sends it itself after ``StandupsProvider/retryDelay(after:)``).
        case retryLoad
        /// After a failed load of a damaged store: start again, empty or
        /// with the samples (the damaged file is kept aside). Refused for a
        /// store that is only away: its stand-ups are still there.
        case startOver(withSamples: Bool)
        /// The stand-ups as the store has them after someone else's change.
        case updated([Standup])
    }

    /// The store's port.
    public struct Dependencies: Sendable {
        /// The stand-ups, in order.
        public var load: @Sendable () async throws(StoreFailure) -> [Standup]
        /// Writes the changes, in order, all or none; returns what the
        /// edits among them found changed elsewhere meanwhile (each merged
        /// into the stand-up as stored: ``Models/Standup/merge(_:from:into:)``).
        public var save: @Sendable (_ changes: [StandupChange]) async throws(StoreFailure) -> [EditConflict]
        /// Starts a new store with `standups`, keeping an unreadable one
        /// aside.
        public var startOver: @Sendable (_ standups: [Standup]) async throws(StoreFailure) -> Void
        /// The stand-ups after each change someone else made.
        public var updates: @Sendable () -> AsyncStream<[Standup]>
        /// The clock that times the retries of a failed write.
        public var clock: any Clock<Duration>

        /// Dependencies from their parts.
        public init(
            load: @escaping @Sendable () async throws(StoreFailure) -> [Standup],
            save: @escaping @Sendable (_ changes: [StandupChange]) async throws(StoreFailure) -> [EditConflict],
            startOver: @escaping @Sendable (_ standups: [Standup]) async throws(StoreFailure) -> Void,
            updates: @escaping @Sendable () -> AsyncStream<[Standup]> = { AsyncStream { $0.finish() } },
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.load = load
            self.save = save
            self.startOver = startOver
            self.updates = updates
            self.clock = clock
        }
    }

    /// The port.
    public typealias Env = Dependencies

    /// A sender waits for room, never loses a change: one provider takes
    /// the changes of every session of a process (``SharedStandups``).
    public typealias Proxy = SyncSuspendingProxy<Event>

    /// Every state: the features show it.
    public typealias Output = State

    static let writeID: EffectID = "write"
    static let updatesID: EffectID = "updates"
    static let retryID: EffectID = "retry"
    static let retryLoadID: EffectID = "retry-load"

    /// How long the provider waits before it tries a failed write again by
    /// itself, after `failedWrites` failures in a row: 1, 2, 4, 8, 16
    /// seconds, then 30.
    public static func retryDelay(after failedWrites: Int) -> Duration {
        .seconds(min(1 << min(max(failedWrites - 1, 0), 5), 30))
    }

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        let effect = transition(&state, event)
        return (effect, state)
    }

    static func transition(_ state: inout State, _ event: Event) -> Self.Effect? {
        switch event {
        case .load:
            guard state.phase == .idle else { return nil }
            state.phase = .loading
            return .combine(load(), follow())
        case .loaded(let standups):
            state.phase = .loaded
            state.failedLoads = 0
            state.standups = IdentifiedArrayOf(uniqueElements: standups.uniqued())
            // Changes made while loading go on top, and are written.
            for change in state.writing + state.queued { state.standups.apply(change) }
            return writeNext(&state)
        case .loadFailed(let failure):
            state.phase = .failed(failure)
            guard !failure.isDamaged else { return nil }
            state.failedLoads += 1
            return send(.retryLoad, after: retryDelay(after: state.failedLoads), id: retryLoadID)
        case .retryLoad:
            guard case .failed(let failure) = state.phase, !failure.isDamaged else { return nil }
            state.phase = .loading
            return .combine(.cancelTask(retryLoadID), load())
        case .apply(let change):
            // Before loading ends, nothing is applied: a change to what is
            // not known yet could not be shown.
            guard state.phase == .loaded, state.standups.apply(change) else { return nil }
            if case .delete(let id) = change { state.conflicts[id] = nil }
            state.queued.append(change)
            return writeNext(&state)
        case .wrote:
            state.writing = []
            state.failedWrites = 0
            return writeNext(&state)
        case .conflicted(let found):
            for conflict in found { state.conflicts[conflict.standup, default: []] += conflict.conflicts }
            return nil
        case .dismissConflicts(let id):
            state.conflicts[id] = nil
            return nil
        case .writeFailed(let failure):
            state.failure = failure
            state.failedWrites += 1
            state.queued = state.writing + state.queued
            state.writing = []
            return send(.retry, after: retryDelay(after: state.failedWrites), id: retryID)
        case .retry:
            guard state.failure != nil else { return nil }
            state.failure = nil
            // Asked before the timer's turn: the timer goes.
            return .combine([.cancelTask(retryID), writeNext(&state)].compactMap { $0 })
        case .startOver(let withSamples):
            guard case .failed(let failure) = state.phase, failure.isDamaged else { return nil }
            state.phase = .loading
            let standups = withSamples ? Standup.samples : []
            return Effect(action: { env in
                do throws(StoreFailure) {
                    try await env.startOver(standups)
                    return .loaded(standups)
                } catch {
                    return .loadFailed(error)
                }
            })
        case .updated(let standups):
            guard state.phase == .loaded else { return nil }
            var updated = IdentifiedArrayOf(uniqueElements: standups.uniqued())
            for change in state.writing + state.queued { updated.apply(change) }
            state.standups = updated
            return nil
        }
    }

    /// A timer on the dependencies' clock that sends `event` after `delay`
    /// (a retry), replaced by the next one with the same `id`.
    static func send(_ event: Event, after delay: Duration, id: EffectID) -> Self.Effect {
        Effect(
            id: id,
            operation: { env, input in
                try await env.clock.sleep(for: delay)
                // Refused only once the run has ended or the timer was
                // cancelled (replaced): nothing to tell.
                try? await input.checkedSend(event)
            })
    }

    /// Hands the queued changes to the store as one batch, unless a batch is
    /// being written or writing stopped after a failure.
    static func writeNext(_ state: inout State) -> Self.Effect? {
        guard state.writing.isEmpty, state.failure == nil, !state.queued.isEmpty else { return nil }
        state.writing = state.queued
        state.queued = []
        let batch = state.writing
        return Effect(
            id: writeID,
            operation: { env, input in
                let conflicts: [EditConflict]
                do throws(StoreFailure) {
                    conflicts = try await env.save(batch)
                } catch {
                    // Refused only once the run has ended (a stop while the
                    // store is away: the caller of `close` reports the batch).
                    try? await input.checkedSend(.writeFailed(error))
                    return
                }
                if !conflicts.isEmpty { try? await input.checkedSend(.conflicted(conflicts)) }
                try? await input.checkedSend(.wrote)
            })
    }

    static func load() -> Self.Effect {
        Effect(action: { env in
            do throws(StoreFailure) {
                return .loaded(try await env.load())
            } catch {
                return .loadFailed(error)
            }
        })
    }

    static func follow() -> Self.Effect {
        Effect(
            id: updatesID,
            operation: { env, input in
                for await standups in env.updates() {
                    guard (try? await input.checkedSend(.updated(standups))) != nil else { return }
                }
            })
    }
}

/// Why the store could not read or write the stand-ups: what happened for a
/// person who does not own the machine's files (``summary``), and the
/// details with paths for the machine's user and the logs (``detail``).
public struct StoreFailure: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What happened, naming no file.
    public var summary: String
    /// What happened and what to do, with paths.
    public var detail: String
    /// Whether the file is damaged (kept aside when starting over).
    public var isDamaged: Bool

    /// A failure.
    public init(summary: String, detail: String, isDamaged: Bool = false) {
        self.summary = summary
        self.detail = detail
        self.isDamaged = isDamaged
    }

    /// The detail.
    public var description: String { detail }
}

extension Array where Element == Standup {
    /// The stand-ups without a second one of the same id.
    func uniqued() -> [Standup] {
        var seen = Set<Standup.ID>()
        return filter { seen.insert($0.id).inserted }
    }
}
