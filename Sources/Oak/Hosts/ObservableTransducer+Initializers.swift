// The initialisers of `ObservableTransducer`, in Oak's shapes: the
// transducer type as `of:` (defaulted, so `ObservableTransducer<T>(…)`
// works too), an optional `proxy:` (a new one when `nil`), and a
// `completion:` given as a `Completion` value or as a closure.

// MARK: - Transducer

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T: Transducer {
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
    ///     each delivery.
    ///   - completion: Called exactly once on the main actor, after the run
    ///     has ended: `.success(output)` when the state became terminal,
    ///     `.failure(error)` when the run was cancelled or failed.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        output: sending some Subject<T.Output>,
        completion: Completion? = nil
    ) {
        self.init(initialState: initialState, proxy: proxy ?? T.Proxy())
        start(completion: completion) { storage, proxy in
            try await T.run(storage: storage, proxy: proxy, output: output)
        }
    }

    /// Creates a host for a ``Transducer`` whose outputs nobody observes; see
    /// the initialiser that takes `output:`.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        completion: Completion? = nil
    ) {
        self.init(of: type, initialState: initialState, proxy: proxy, output: NoCallback(), completion: completion)
    }

    /// Creates a host for a ``Transducer`` with a completion closure.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        output: sending some Subject<T.Output>,
        completion: @escaping (Result<T.Output, any Error>) -> Void
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: output, completion: Completion(completion))
    }

    /// Creates a host for a ``Transducer`` whose outputs nobody observes,
    /// with a completion closure.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        completion: @escaping (Result<T.Output, any Error>) -> Void
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(),
            completion: Completion(completion))
    }
}

// MARK: - EffectTransducer

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T: EffectTransducer {
    /// The environment of the transducer's effects.
    public typealias Env = T.Env

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
    ///     each delivery. Never called for a transducer whose `update`
    ///     returns only `Effect?`.
    ///   - completion: Called exactly once on the main actor, after the run
    ///     has ended and every operation was cancelled and awaited:
    ///     `.success(output)` when the state became terminal,
    ///     `.failure(error)` when the run was cancelled or failed.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        env: T.Env,
        output: sending some Subject<T.Output>,
        completion: Completion? = nil
    ) {
        self.init(initialState: initialState, proxy: proxy ?? T.Proxy())
        // Safety: the environment is used on the main actor only, by the run
        // this host starts there.
        nonisolated(unsafe) let env = env
        start(completion: completion) { storage, proxy in
            try await T.run(storage: storage, proxy: proxy, env: env, output: output)
        }
    }

    /// Creates a host for an ``EffectTransducer`` whose outputs nobody
    /// observes; see
    /// the initialiser that takes `output:`.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        env: T.Env,
        completion: Completion? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: NoCallback(), completion: completion)
    }

    /// Creates a host for an ``EffectTransducer`` with a completion closure.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        env: T.Env,
        output: sending some Subject<T.Output>,
        completion: @escaping (Result<T.Output, any Error>) -> Void
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: output,
            completion: Completion(completion))
    }

    /// Creates a host for an ``EffectTransducer`` whose outputs nobody
    /// observes, with a completion closure.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        env: T.Env,
        completion: @escaping (Result<T.Output, any Error>) -> Void
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: NoCallback(),
            completion: Completion(completion))
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T: EffectTransducer, T.Env == Void {
    /// Creates a host for an ``EffectTransducer`` whose effects need no
    /// environment.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        output: sending some Subject<T.Output>,
        completion: Completion? = nil
    ) {
        self.init(of: type, initialState: initialState, proxy: proxy, env: (), output: output, completion: completion)
    }

    /// Creates a host for an ``EffectTransducer`` whose effects need no
    /// environment and whose outputs nobody observes.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        completion: Completion? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: (), output: NoCallback(), completion: completion)
    }

    /// Creates a host for an ``EffectTransducer`` whose effects need no
    /// environment, with a completion closure.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        output: sending some Subject<T.Output>,
        completion: @escaping (Result<T.Output, any Error>) -> Void
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: (), output: output,
            completion: Completion(completion))
    }

    /// Creates a host for an ``EffectTransducer`` whose effects need no
    /// environment and whose outputs nobody observes, with a completion
    /// closure.
    public convenience init(
        of type: T.Type = T.self,
        initialState: T.State,
        proxy: T.Proxy? = nil,
        completion: @escaping (Result<T.Output, any Error>) -> Void
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: (), output: NoCallback(),
            completion: Completion(completion))
    }
}

// MARK: - Sending

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where T.Proxy == Oak.Proxy<T.Event> {
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
    /// as `proxy.send(event)`: when the run has ended the event is dropped
    /// (and logged).
    public func send(_ event: sending T.Event) async {
        await proxy.send(event)
    }

    /// Sends `event` and suspends until the run has processed it, reporting
    /// failures; the same as `proxy.checkedSend(event)`.
    ///
    /// - Throws: ``TransducerError/terminated`` when the run has ended (also
    ///   while the event waited), ``TransducerError/bufferFull`` when too
    ///   many senders wait.
    public func checkedSend(_ event: sending T.Event) async throws(TransducerError) {
        try await proxy.checkedSend(event)
    }
}
