// The designated initialisers of `ObservableTransducer`: one per kind of
// transducer, in Oak's shape — the transducer type as `of:` (defaulted, so
// `ObservableTransducer<T>(…)` works too), an optional `proxy:` (a new one
// when `nil`) — with `output:` and `completion:` (a closure) that may be
// left out. Oak's forms that take `completion:` as a `Completion` value are
// in `Compatibility/`.

// MARK: - Transducer

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer: Oak.Transducer {
    /// Creates a host for a ``Transducer`` and starts its run at once.
    ///
    /// ```swift
    /// let counter = ObservableTransducer<SimpleCounter>(
    ///     initialState: SimpleCounter.State(),
    ///     output: Callback { print("count:", $0) }
    /// )
    /// try counter.proxy.send(.increment)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The transducer to run; may be left out when the generic
    ///     argument says it.
    ///   - initialState: The state to start from. If it is already terminal,
    ///     the run ends at once.
    ///   - proxy: The event channel of the run, or `nil` for a new one. It
    ///     must not have been used by another run; if it has, the run ends at
    ///     once and `completion` receives
    ///     ``TransducerError/proxyAlreadyInUse``.
    ///   - output: Receives every output, on the main actor; the run awaits
    ///     each delivery. Left out, outputs are ignored.
    ///   - completion: Called exactly once on the main actor, after the run
    ///     has ended: `.success(output)` when the state became terminal,
    ///     `.failure(error)` when the run was cancelled or failed.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(initialState: initialState, proxy: proxy ?? Transducer.Proxy())
        start(completion: completion) { storage, proxy in
            try await Transducer.run(storage: storage, proxy: proxy, output: output)
        }
    }

    /// The same, for a run whose outputs nobody observes.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(), completion: completion)
    }
}

// MARK: - EffectTransducer

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer: Oak.EffectTransducer {
    /// The environment of the transducer's effects.
    public typealias Env = Transducer.Env

    /// Creates a host for an ``EffectTransducer`` and starts its run at once.
    ///
    /// ```swift
    /// let counter = ObservableTransducer(
    ///     of: CounterTransducer.self,
    ///     initialState: CounterTransducer.State(),
    ///     env: CounterTransducer.Env()
    /// )
    /// try counter.proxy.send(.increment)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The transducer to run; may be left out when the generic
    ///     argument says it.
    ///   - initialState: The state to start from. If it is already terminal,
    ///     the run ends at once.
    ///   - proxy: The event channel of the run, or `nil` for a new one. It
    ///     must not have been used by another run; if it has, the run ends at
    ///     once and `completion` receives
    ///     ``TransducerError/proxyAlreadyInUse``.
    ///   - env: The environment the effects receive. It need not be
    ///     `Sendable`: the run and its isolated effects use it on the main
    ///     actor.
    ///   - output: Receives every output, on the main actor; the run awaits
    ///     each delivery. Left out, outputs are ignored. Never called for a
    ///     transducer whose `update` returns only `Effect?`.
    ///   - completion: Called exactly once on the main actor, after the run
    ///     has ended and every operation was cancelled and awaited:
    ///     `.success(output)` when the state became terminal,
    ///     `.failure(error)` when the run was cancelled or failed.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        output: sending some Subject<Transducer.Output>,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(initialState: initialState, proxy: proxy ?? Transducer.Proxy())
        // Safety: the environment is used on the main actor only, by the run
        // this host starts there.
        nonisolated(unsafe) let env = env
        start(completion: completion) { storage, proxy in
            try await Transducer.run(storage: storage, proxy: proxy, env: env, output: output)
        }
    }

    /// The same, for a run whose outputs nobody observes.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: NoCallback(), completion: completion)
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer: Oak.EffectTransducer, Transducer.Env == Void {
    /// Creates a host for an ``EffectTransducer`` whose effects need no
    /// environment; see the initialiser that takes `env:`.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(of: type, initialState: initialState, proxy: proxy, env: (), output: output, completion: completion)
    }

    /// The same, for a run whose outputs nobody observes.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(), completion: completion)
    }
}

// MARK: - Saved state

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer.State: Codable {
    /// Creates a host that starts from the state saved in `snapshots` and
    /// saves the state there after every change.
    ///
    /// ```swift
    /// let favourites = ObservableTransducer<Favourites>(
    ///     restoringFrom: StateSnapshots(url: dataDirectory.appending(path: "favourites.json")),
    ///     initialState: Favourites.State(),
    ///     restored: { _ in .didRestore },
    ///     env: env)
    /// ```
    ///
    /// Without a snapshot, or when it cannot be restored (it is then set
    /// aside and reported, see ``StateSnapshots``), the run starts from
    /// `initialState`. Effects that were running when the state was saved
    /// are not resurrected: after a restore the transducer first gets the
    /// event `restored` makes, before any event sent since the host was
    /// created, and decides there what to start again.
    ///
    /// - Parameters:
    ///   - type: The transducer to run; may be left out when the generic
    ///     argument says it.
    ///   - snapshots: Where the state is kept.
    ///   - initialState: The state to start from without a snapshot.
    ///   - restored: The event the transducer gets first after a restore;
    ///     `nil` (the default) for none.
    ///   - proxy: The event channel of the run, or `nil` for a new one.
    ///   - env: The environment the effects receive; `()` for a
    ///     ``Transducer``.
    ///   - output: Receives every output, on the main actor. Left out,
    ///     outputs are ignored.
    ///   - completion: Called exactly once on the main actor, after the run
    ///     has ended.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        restoringFrom snapshots: StateSnapshots<Transducer.State>,
        initialState: Transducer.State,
        restored: (Transducer.State) -> Transducer.Event? = { _ in nil },
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        output: sending some Subject<Transducer.Output>,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        let saved = snapshots.startingState(initialState: initialState, restored: restored)
        self.init(initialState: saved.state, proxy: proxy ?? Transducer.Proxy())
        saveStates(with: SnapshotWriter(snapshots).write)
        // Safety: the environment and the event are used on the main actor
        // only, by the run this host starts there.
        nonisolated(unsafe) let env = env
        nonisolated(unsafe) let event = saved.event
        let restoredFrom = saved.restoredFrom
        start(completion: completion) { storage, proxy in
            if let event {
                nonisolated(unsafe) let event = event
                try proxy._channel.prepend(event)
            }
            return try await TransducerInspection.$restoredFrom.withValue(
                restoredFrom,
                operation: {
                    try await Transducer.run(
                        storage: storage, proxy: proxy, env: env, output: output, isolation: MainActor.shared)
                }, isolation: MainActor.shared)
        }
    }

    /// The same, for a run whose outputs nobody observes.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        restoringFrom snapshots: StateSnapshots<Transducer.State>,
        initialState: Transducer.State,
        restored: (Transducer.State) -> Transducer.Event? = { _ in nil },
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(
            of: type, restoringFrom: snapshots, initialState: initialState, restored: restored, proxy: proxy, env: env,
            output: NoCallback(), completion: completion)
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer.State: Codable, Transducer.Env == Void {
    /// Creates a host that restores and saves its state, for a transducer
    /// without an environment; see the initialiser that takes `env:`.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        restoringFrom snapshots: StateSnapshots<Transducer.State>,
        initialState: Transducer.State,
        restored: (Transducer.State) -> Transducer.Event? = { _ in nil },
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(
            of: type, restoringFrom: snapshots, initialState: initialState, restored: restored, proxy: proxy,
            env: (), output: output, completion: completion)
    }

    /// The same, for a run whose outputs nobody observes.
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        restoringFrom snapshots: StateSnapshots<Transducer.State>,
        initialState: Transducer.State,
        restored: (Transducer.State) -> Transducer.Event? = { _ in nil },
        proxy: Transducer.Proxy? = nil,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil
    ) {
        self.init(
            of: type, restoringFrom: snapshots, initialState: initialState, restored: restored, proxy: proxy,
            output: NoCallback(), completion: completion)
    }
}

// MARK: - Sending

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer.Proxy == Oak.Proxy<Transducer.Event> {
    /// Enqueues `event` for processing by the run; the same as
    /// `proxy.send(event)`.
    ///
    /// - Throws: ``TransducerError/terminated`` when the run has ended,
    ///   ``TransducerError/bufferFull`` when the proxy's buffer is full. The
    ///   event is not enqueued then.
    @_disfavoredOverload
    public func send(_ event: sending Transducer.Event) throws(TransducerError) {
        try proxy.send(event)
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer.Proxy == SyncSuspendingProxy<Transducer.Event> {
    /// Sends `event` and suspends until the run has processed it; the same
    /// as `proxy.send(event)`: when the run has ended the event is dropped
    /// (and logged).
    @_disfavoredOverload
    public func send(_ event: sending Transducer.Event) async {
        await proxy.send(event)
    }

    /// Sends `event` and suspends until the run has processed it, reporting
    /// failures; the same as `proxy.checkedSend(event)`.
    ///
    /// - Throws: ``TransducerError/terminated`` when the run has ended (also
    ///   while the event waited), ``TransducerError/bufferFull`` when too
    ///   many senders wait.
    @_disfavoredOverload
    public func checkedSend(_ event: sending Transducer.Event) async throws(TransducerError) {
        try await proxy.checkedSend(event)
    }
}
