// A run told of a shared run's changes without a task of its own: the
// shared run queues a notice in the run's channel, at most one at a time.

extension SharedRun {
    /// Tells another run each time this run's state changes, without a task
    /// that watches: `event` joins that run's events, and its update reads
    /// what changed from the one copy (``state``).
    ///
    /// ```swift
    /// case .start:
    ///     return Effect { env, input in
    ///         let provider = env.provider
    ///         return .attached(provider, provider.notify(input, with: .providerChanged))
    ///     }
    /// case .attached(let provider, let subscription):
    ///     state.provider = provider          // read through `provider.state`
    ///     state.subscription = subscription  // told while it is held
    /// case .providerChanged:
    ///     state.apply(state.provider?.state)
    /// ```
    ///
    /// The notices are *coalesced*: while `event` waits in the run's
    /// channel, further changes queue nothing more — the update that takes
    /// it reads the latest state, and a change after the notice was taken
    /// queues it again. A run busy elsewhere therefore holds at most one
    /// notice per subscription, whatever the number of changes; a notice
    /// takes no room of the run's buffer and is never refused for a full
    /// one. The run takes a waiting notice when it has nothing else to do,
    /// and after each batch of its other events.
    ///
    /// A change published after `notify` returns is told; read the state
    /// after it (in the update of the event that brings the subscription)
    /// and nothing is missed in between. When the shared run ends, the run
    /// is told once more (``ending`` then says how it ended). A run that
    /// subscribes to a shared run that has already ended is told at once.
    ///
    /// Compared with a watcher of ``states`` in an operation, a subscription
    /// has no task: no stack kept for as long as it lasts, no task woken for
    /// each change. It suits a run that reacts to a shared state it reads
    /// anyway, many such runs to one shared run (a thousand sessions of one
    /// server following one list).
    ///
    /// - Parameters:
    ///   - input: The input of the run to tell — the `input` an effect
    ///     receives. The notices go to that run, not to an operation: the
    ///     subscription outlives the effect that made it.
    ///   - event: The event to send; it carries nothing of the state.
    /// - Returns: The subscription: it lasts while it is held (in the run's
    ///   state), until ``Subscription/cancel()``, until the told run ends
    ///   (its next notice is refused), or until this run ends.
    public func notify<Input: _ChannelInput>(
        _ input: Input, with event: Input.Event
    ) -> Subscription where Input.Event: Sendable {
        let channel = input._runChannel
        let notice = _ChannelNotice(event: event)
        let seen = broadcast.version
        return subscribe(seen: seen) { _, _ in channel.notify(notice) }
    }

    /// Tells another run each time the value `value` reads from this run's
    /// state changes: a subscription that ignores every other change (a
    /// viewer that acts only when a meeting ends, not on each of its ticks).
    ///
    /// ```swift
    /// let ending = room.notify(input, with: .meetingChanged(room.id)) { $0.ending }
    /// ```
    ///
    /// The value is read from each state the run publishes, on the shared
    /// run's isolation and outside its lock, and compared with the value
    /// last told (first, with the value when `notify` was called); when it
    /// differs, the run is told, coalesced as with ``notify(_:with:)``. The
    /// end of the shared run ends the subscription without a notice: the
    /// last state it publishes is told like any other.
    ///
    /// - Parameters:
    ///   - input: The input of the run to tell.
    ///   - event: The event to send.
    ///   - value: What the run acts on, read from a state. Keep it cheap:
    ///     it is read for every state the shared run publishes.
    /// - Returns: The subscription; see ``notify(_:with:)``.
    public func notify<Input: _ChannelInput, Value: Equatable & Sendable>(
        _ input: Input, with event: Input.Event,
        whenChanged value: @escaping @Sendable (Shared.State) -> Value
    ) -> Subscription where Input.Event: Sendable {
        let channel = input._runChannel
        let notice = _ChannelNotice(event: event)
        let (seen, state) = broadcast.versioned
        let told = LockedState(value(state))
        return subscribe(seen: seen) { state, ended in
            guard !ended else { return false }
            let new = value(state)
            let changed = told.withLock { told in
                defer { told = new }
                return told != new
            }
            return changed ? channel.notify(notice) : true
        }
    }

    /// Registers `tell`, and tells it a state published since version
    /// `seen` that it could not be told of.
    private func subscribe(
        seen: UInt64, _ tell: @escaping @Sendable (Shared.State, Bool) -> Bool
    ) -> Subscription {
        guard let (number, missed) = broadcast.subscribe(tell, seen: seen) else {
            return Subscription(nil)
        }
        let subscription = Subscription { [broadcast] in broadcast.unsubscribe(number) }
        if let missed, !tell(missed, false) { subscription.cancel() }
        return subscription
    }

    /// A run's subscription to a shared run's changes
    /// (``SharedRun/notify(_:with:)``): it lasts while it is held, until
    /// ``cancel()``, until the told run ends, or until the shared run ends.
    ///
    /// Keep it in the state of the run it tells, beside the shared run's
    /// handle; dropping it (leaving the screen that showed the shared run)
    /// ends it. Equal only to itself.
    public final class Subscription: Hashable, Sendable {
        private let end: LockedState<(@Sendable () -> Void)?>

        init(_ end: (@Sendable () -> Void)?) {
            self.end = LockedState(end)
        }

        /// Ends the subscription: no change published after it returns is
        /// told (a notice already waiting in the run's channel, or queued
        /// by a change being told at that moment, is still taken). Ending
        /// it again does nothing.
        public func cancel() {
            let end = end.withLock { end in
                defer { end = nil }
                return end
            }
            end?()
        }

        deinit {
            cancel()
        }

        /// Whether `lhs` and `rhs` are the same subscription.
        public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }

        /// Hashes the subscription's identity.
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }
}
