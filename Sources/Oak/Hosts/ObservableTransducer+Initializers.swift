// MARK: - Transducer

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T: Transducer {
    /// Creates a host for a ``Transducer`` and starts its run at once.
    ///
    /// ```swift
    /// let counter = ObservableTransducer(of: SimpleCounter.self, initialState: SimpleCounter.State())
    /// try counter.proxy.send(.increment)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The transducer to run.
    ///   - initialState: The state to start from. If it is already terminal,
    ///     the run ends at once.
    ///   - output: Receives every output, on the main actor; the run awaits
    ///     each delivery.
    ///   - completion: Called exactly once on the main actor, after the run
    ///     has ended: `.success(output)` when the state became terminal,
    ///     `.failure(error)` when the run was cancelled (also by releasing
    ///     the host) or failed.
    public convenience init(
        of type: T.Type,
        initialState: T.State,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil
    ) where T.Proxy == Proxy<T.Event> {
        self.init(of: type, initialState: initialState, proxy: Proxy(), output: output, completion: completion)
    }

    /// Creates a host for a ``Transducer`` that runs with `proxy`, and starts
    /// its run at once, like the initializer without `proxy:`.
    ///
    /// Use it to choose the proxy's buffer size or initial event, or for a
    /// transducer whose `Proxy` is ``SyncSuspendingProxy``. The proxy must
    /// not have been used by another run; if it has, the run ends at once and
    /// `completion` receives ``TransducerError/proxyAlreadyInUse``.
    public convenience init(
        of type: T.Type,
        initialState: T.State,
        proxy: T.Proxy,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil
    ) {
        self.init(initialState: initialState, proxy: proxy)
        start(completion: completion) { storage, proxy in
            try await T.run(storage: storage, proxy: proxy, output: output)
        }
    }
}

// MARK: - EffectTransducer

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T: EffectTransducer {
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
    ///   - type: The transducer to run.
    ///   - initialState: The state to start from. If it is already terminal,
    ///     the run ends at once.
    ///   - env: The environment the effects receive.
    ///   - output: Receives every output, on the main actor; the run awaits
    ///     each delivery.
    ///   - completion: Called exactly once on the main actor, after the run
    ///     has ended and every operation was cancelled and awaited:
    ///     `.success(output)` when the state became terminal,
    ///     `.failure(error)` when the run was cancelled (also by releasing
    ///     the host) or failed.
    public convenience init(
        of type: T.Type,
        initialState: T.State,
        env: T.Env,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil
    ) where T.Proxy == Proxy<T.Event> {
        self.init(
            of: type, initialState: initialState, proxy: Proxy(), env: env, output: output, completion: completion)
    }

    /// Creates a host for an ``EffectTransducer`` that runs with `proxy`, and
    /// starts its run at once; see ``init(of:initialState:env:output:completion:)``.
    ///
    /// Use it to choose the proxy's buffer size or initial event, or for a
    /// transducer whose `Proxy` is ``SyncSuspendingProxy``. The proxy must
    /// not have been used by another run; if it has, the run ends at once and
    /// `completion` receives ``TransducerError/proxyAlreadyInUse``.
    public convenience init(
        of type: T.Type,
        initialState: T.State,
        proxy: T.Proxy,
        env: T.Env,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil
    ) {
        self.init(initialState: initialState, proxy: proxy)
        start(completion: completion) { storage, proxy in
            try await T.run(storage: storage, proxy: proxy, env: env, output: output)
        }
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T: EffectTransducer, T.Env == Void {
    /// Creates a host for an ``EffectTransducer`` whose effects need no
    /// environment, and starts its run at once; see
    /// ``init(of:initialState:env:output:completion:)``.
    public convenience init(
        of type: T.Type,
        initialState: T.State,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil
    ) where T.Proxy == Proxy<T.Event> {
        self.init(
            of: type, initialState: initialState, proxy: Proxy(), env: (), output: output, completion: completion)
    }

    /// Creates a host for an ``EffectTransducer`` whose effects need no
    /// environment, running with `proxy`; see
    /// ``init(of:initialState:proxy:env:output:completion:)``.
    public convenience init(
        of type: T.Type,
        initialState: T.State,
        proxy: T.Proxy,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil
    ) {
        self.init(of: type, initialState: initialState, proxy: proxy, env: (), output: output, completion: completion)
    }
}

// MARK: - Sending

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T.Proxy == Proxy<T.Event> {
    /// Enqueues `event` for processing by the run; the same as
    /// `proxy.send(event)`.
    ///
    /// - Throws: ``TransducerError/terminated`` when the run has ended,
    ///   ``TransducerError/bufferFull`` when the proxy's buffer is full. The
    ///   event is not enqueued then.
    public func send(_ event: sending T.Event) throws(TransducerError) {
        try proxy.send(event)
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T.Proxy == SyncSuspendingProxy<T.Event> {
    /// Sends `event` and suspends until the run has processed it; the same
    /// as `proxy.send(event)`.
    ///
    /// - Throws: ``TransducerError/terminated`` when the run has ended (also
    ///   while the event waited), ``TransducerError/bufferFull`` when too
    ///   many senders wait.
    public func send(_ event: sending T.Event) async throws(TransducerError) {
        try await proxy.send(event)
    }
}
