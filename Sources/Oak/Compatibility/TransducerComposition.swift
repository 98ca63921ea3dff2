// Two transducers composed into one, side by side or one after the other.

/// Two transducers run as one: side by side (``parallel(_:_:initialState:proxy:env:output:isolation:)``)
/// or one after the other (``sequential(_:_:initialState:then:proxies:env:output:isolation:)``).
///
/// Each component keeps its own run, proxy, effects and buffer; the
/// composition routes events to them (``SumTypeEvent``), merges their outputs
/// (``SumTypeOutput``) into one subject, and ends as the contract says a run
/// ends: when the components have reached terminal states, or with the first
/// error (the other component is then cancelled and awaited). Both components
/// run on the caller's isolation. The names are Oak's.
///
/// ```swift
/// let proxy = ParallelProxy<Timer.Proxy, Counter.Proxy>()
/// try proxy.send(.eventB(.increment))
/// let (timer, count) = try await TransducerComposition.parallel(
///     Timer.self, Counter.self,
///     initialState: ProductTypeState(stateA: Timer.State(), stateB: Counter.State()),
///     proxy: proxy, env: ProductTypeEnv(envA: timerEnv, envB: ()),
///     output: Callback { print($0) })
/// ```
public enum TransducerComposition {
    /// Runs `a` and `b` side by side until both states are terminal; returns
    /// both last outputs. Events sent through `proxy` go to the component
    /// they name; every output of either is delivered to `output`, in the
    /// order they happen.
    ///
    /// - Throws: The first error of either run; the other run is cancelled
    ///   and awaited before this throws.
    public static func parallel<A: BaseTransducer, B: BaseTransducer>(
        _ a: A.Type,
        _ b: B.Type,
        initialState: ProductTypeState<A.State, B.State>,
        proxy: ParallelProxy<A.Proxy, B.Proxy>,
        env: ProductTypeEnv<A.Env, B.Env>,
        output: some Subject<SumTypeOutput<A.Output, B.Output>>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> (A.Output, B.Output) {
        let proxies = proxy
        // Safety: the states, environments and the shared subject go to the
        // two runs, which use them on `isolation` only.
        nonisolated(unsafe) let states = initialState
        nonisolated(unsafe) let envs = env
        nonisolated(unsafe) let subject = output
        let runA: (isolated (any Actor)?) async throws -> A.Output = { actor in
            try await A.run(
                initialState: states.stateA, proxy: proxies.proxyA, env: envs.envA,
                output: MappedSubject<A.Output, SumTypeOutput<A.Output, B.Output>>(subject, SumTypeOutput.outputA),
                isolation: actor)
        }
        let runB: (isolated (any Actor)?) async throws -> B.Output = { actor in
            try await B.run(
                initialState: states.stateB, proxy: proxies.proxyB, env: envs.envB,
                output: MappedSubject<B.Output, SumTypeOutput<A.Output, B.Output>>(subject, SumTypeOutput.outputB),
                isolation: actor)
        }
        // Safety: each run, the shared subject and the environments are used
        // on `isolation` only (each run's `isolation`); the task group only
        // starts and awaits them.
        nonisolated(unsafe) let startA = runA
        nonisolated(unsafe) let startB = runB
        let actor = isolation
        return try await withThrowingTaskGroup(of: Completed<A.Output, B.Output>.self) { group in
            group.addTask { .a(try await startA(actor)) }
            group.addTask { .b(try await startB(actor)) }
            var outputA: A.Output?
            var outputB: B.Output?
            do {
                while let completed = try await group.next() {
                    switch completed {
                    case .a(let value): outputA = value
                    case .b(let value): outputB = value
                    }
                }
            } catch {
                proxies.proxyA.cancel(with: error)
                proxies.proxyB.cancel(with: error)
                group.cancelAll()
                throw error
            }
            guard let outputA, let outputB else { throw TransducerError.noOutputProduced }
            return (outputA, outputB)
        }
    }

    /// Runs `a` until its state is terminal, then `b` from the state that
    /// `then` makes of `a`'s last output; returns `b`'s last output. Events
    /// for the component that is not running yet wait in its proxy's buffer.
    public static func sequential<A: BaseTransducer, B: BaseTransducer>(
        _ a: A.Type,
        _ b: B.Type,
        initialState: A.State,
        then: (A.Output) throws -> B.State,
        proxies: ParallelProxy<A.Proxy, B.Proxy>,
        env: ProductTypeEnv<A.Env, B.Env>,
        output: some Subject<SumTypeOutput<A.Output, B.Output>>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> B.Output {
        nonisolated(unsafe) let subject = output
        let first = try await A.run(
            initialState: initialState, proxy: proxies.proxyA, env: env.envA,
            output: MappedSubject<A.Output, SumTypeOutput<A.Output, B.Output>>(subject, SumTypeOutput.outputA),
            isolation: isolation)
        return try await B.run(
            initialState: try then(first), proxy: proxies.proxyB, env: env.envB,
            output: MappedSubject<B.Output, SumTypeOutput<A.Output, B.Output>>(subject, SumTypeOutput.outputB),
            isolation: isolation)
    }

    /// Which component finished, with its last output.
    ///
    /// Safety: an output is produced by a run on `isolation` and read by
    /// `parallel` on the same isolation after the group's task returned it;
    /// the task group only carries it across, never uses it concurrently.
    enum Completed<OutputA, OutputB>: @unchecked Sendable {
        case a(OutputA)
        case b(OutputB)
    }
}

/// A subject that delivers each value, mapped, to another subject.
struct MappedSubject<Value, Target>: Subject {
    // Safety: used by one run at a time, on that run's isolation.
    nonisolated(unsafe) let target: any Subject<Target>
    let transform: (Value) -> Target

    init(_ target: some Subject<Target>, _ transform: @escaping (Value) -> Target) {
        self.target = target
        self.transform = transform
    }

    func send(_ value: sending Value, isolated: isolated any Actor) async throws {
        nonisolated(unsafe) let mapped = transform(value)
        try await target.send(mapped, isolated: isolated)
    }
}

/// An event of a composition: for the first component, or for the second.
public enum SumTypeEvent<EventA, EventB> {
    /// An event for the first component.
    case eventA(EventA)
    /// An event for the second component.
    case eventB(EventB)
}

extension SumTypeEvent: Sendable where EventA: Sendable, EventB: Sendable {}
extension SumTypeEvent: Equatable where EventA: Equatable, EventB: Equatable {}

/// An output of a composition: from the first component, or from the
/// second.
public enum SumTypeOutput<OutputA, OutputB> {
    /// An output of the first component.
    case outputA(OutputA)
    /// An output of the second component.
    case outputB(OutputB)
}

extension SumTypeOutput: Sendable where OutputA: Sendable, OutputB: Sendable {}
extension SumTypeOutput: Equatable where OutputA: Equatable, OutputB: Equatable {}

/// The states of a parallel composition: terminal when both components'
/// states are.
public struct ProductTypeState<StateA: Terminable, StateB: Terminable>: Terminable {
    /// The first component's state.
    public var stateA: StateA
    /// The second component's state.
    public var stateB: StateB

    /// The two states.
    public init(stateA: StateA, stateB: StateB) {
        self.stateA = stateA
        self.stateB = stateB
    }

    /// Whether both states are terminal: a parallel composition ends when
    /// both components have ended. (Oak 0.34 says either; its run, like this
    /// one, waits for both.)
    public var isTerminal: Bool { stateA.isTerminal && stateB.isTerminal }
}

extension ProductTypeState: Sendable where StateA: Sendable, StateB: Sendable {}
extension ProductTypeState: Equatable where StateA: Equatable, StateB: Equatable {}

/// The environments of a composition's components.
public struct ProductTypeEnv<EnvA, EnvB> {
    /// The first component's environment.
    public var envA: EnvA
    /// The second component's environment.
    public var envB: EnvB

    /// The two environments.
    public init(envA: EnvA, envB: EnvB) {
        self.envA = envA
        self.envB = envB
    }
}

extension ProductTypeEnv: Sendable where EnvA: Sendable, EnvB: Sendable {}

/// The proxies of a composition's components, and the routing of
/// ``SumTypeEvent``s to them.
public struct ParallelProxy<ProxyA: TransducerProxy & _ChannelProxy, ProxyB: TransducerProxy & _ChannelProxy>:
    Sendable
{
    /// The first component's proxy.
    public let proxyA: ProxyA
    /// The second component's proxy.
    public let proxyB: ProxyB

    /// New proxies for both components.
    public init() {
        self.init(proxyA: ProxyA(), proxyB: ProxyB())
    }

    /// These proxies.
    public init(proxyA: ProxyA, proxyB: ProxyB) {
        self.proxyA = proxyA
        self.proxyB = proxyB
    }

    /// Ends both components' runs with ``TransducerError/cancelled``.
    public func cancel() {
        proxyA.cancel()
        proxyB.cancel()
    }
}

extension ParallelProxy {
    /// Sends `event` to the component it names.
    public func send<EventA, EventB>(
        _ event: sending SumTypeEvent<EventA, EventB>
    ) throws(TransducerError) where ProxyA == Proxy<EventA>, ProxyB == Proxy<EventB> {
        switch consume event {
        case .eventA(let event): try proxyA.send(event)
        case .eventB(let event): try proxyB.send(event)
        }
    }
}
