// Runs an app's root transducer in the terminal, hosted by Oak's
// `ObservableTransducer`: draws the screen of each state the run reaches,
// awaits keys as they come (no polling) and hands each to the binding of
// the screen shown, awaiting it — an intent returns once the run has
// processed it — and then, when the app says it has not settled (a change
// on its way to a store shared with others), waiting for it to settle
// before the next key, so that a fast typist's keys are each interpreted
// on the screen they were typed for.

import Common
import Dispatch
import Oak
import Observation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one state looks like in the terminal, and the keys valid in it.
public struct Screen {
    /// What is drawn.
    public var canvas: Canvas
    /// The keys valid in the state shown.
    public var bindings: [KeyBinding]
    /// The text field that has the focus, if any: characters typed, and
    /// the keys that edit a line (Backspace, Del, ←, →, Home, End), go to
    /// it before the bindings.
    public var textField: TextFieldInput?

    /// A screen.
    public init(canvas: Canvas, bindings: [KeyBinding], textField: TextFieldInput? = nil) {
        self.canvas = canvas
        self.bindings = bindings
        self.textField = textField
    }

    /// Does what `key` does on this screen: edits the focused text field,
    /// or performs the key's binding; returns once that is done, and
    /// whether anything used the key.
    @MainActor
    @discardableResult
    public func handle(_ key: Key) async -> Bool {
        if let textField, let edit = TextFieldInput.edit(for: key) {
            await textField.edit(edit)
            return true
        }
        guard let binding = binding(for: key) else { return false }
        await binding.action()
        return true
    }

    /// The binding of `key`, if one is valid.
    public func binding(for key: Key) -> KeyBinding? {
        bindings.first { $0.keys.contains(key) }
    }
}

/// The text field a screen has focused: what each edit of its line does.
public struct TextFieldInput {
    /// Applies an edit (Common's `TextEdit`) and returns once it is done.
    public var edit: @MainActor (TextEdit) async -> Void

    /// A field whose edits `edit` applies.
    public init(edit: @escaping @MainActor (TextEdit) async -> Void) {
        self.edit = edit
    }

    /// A field whose edits are the intents `intent` makes.
    @MainActor
    public init<Event>(intent: @escaping (TextEdit) -> Intent<Event>) {
        self.init { edit in await intent(edit).perform() }
    }

    /// The edit `key` makes in a text field, if it makes one: a character
    /// is inserted; Backspace, Del, ←, →, Home and End edit the line.
    public static func edit(for key: Key) -> TextEdit? {
        switch key {
        case .character(let character): .insert(String(character))
        case .backspace: .deleteBackward
        case .delete: .deleteForward
        case .left: .left
        case .right: .right
        case .home: .home
        case .end: .end
        default: nil
        }
    }
}

/// What a screen is drawn for: the terminal's size and abilities, and the
/// frame of an animation (a spinner while something loads).
public struct ScreenContext: Equatable, Sendable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int
    /// Counts up while the state animates (``TerminalFrontEnd``'s
    /// `isAnimating`), else 0.
    public var frame: Int
    /// How the terminal shows images, if it does.
    public var imageProtocol: InlineImageProtocol?

    /// A context.
    public init(width: Int, height: Int, frame: Int = 0, imageProtocol: InlineImageProtocol? = nil) {
        self.width = width
        self.height = height
        self.frame = frame
        self.imageProtocol = imageProtocol
    }
}

/// Something the front end reacts to.
enum TerminalInput: Sendable {
    /// A key was pressed.
    case key(Key)
    /// The terminal changed size.
    case resized
    /// The program was continued after being stopped from outside.
    case continued
    /// The host's state (or whether it runs) changed.
    case changed
    /// The animation's next frame is due.
    case tick
    /// Keys typed ahead have waited long enough for the app to settle.
    case settleTimeout
    /// The program was asked to stop (SIGTERM, SIGHUP, SIGINT from outside).
    case terminate
}

/// Keys typed ahead, handed on one at a time, in order: each once the one
/// before has been handled and the app has settled after it (or has waited
/// long enough), so that each meets the screen it was typed for.
struct TypeAhead {
    /// Keys read and not yet handed on, oldest first.
    private(set) var keys: [Key] = []
    /// Whether the last key handed on left the app unsettled: the next
    /// waits.
    private(set) var isSettling = false

    /// A key read.
    mutating func append(_ key: Key) {
        keys.append(key)
    }

    /// The next key to hand on now, if any: none while the app settles,
    /// unless it has settled (`settled`) or waited long enough
    /// (`waitedEnough`).
    mutating func next(settled: Bool, waitedEnough: Bool = false) -> Key? {
        if isSettling, settled || waitedEnough { isSettling = false }
        guard !isSettling, !keys.isEmpty else { return nil }
        return keys.removeFirst()
    }

    /// The key handed on has been handled; whether the app has settled.
    mutating func handled(settled: Bool) {
        isSettling = !settled
    }
}

/// A terminal front end for an app's root transducer.
///
/// ```swift
/// let host = ObservableTransducer<Main>(initialState: Main.State(), env: env)
/// await host.proxy.send(.start)
/// try await TerminalFrontEnd().run(host) { state, context in
///     MainTerminalView.screen(state, host: host, context: context)
/// }
/// ```
@MainActor
public final class TerminalFrontEnd {
    private let terminal: Terminal
    private let clock: any Clock<Duration>
    private let frameInterval: Duration
    private let settleLimit: Duration

    /// A front end on the process's terminal.
    ///
    /// - Parameters:
    ///   - terminal: The terminal.
    ///   - clock: The clock of animations.
    ///   - frameInterval: How long an animation frame lasts.
    ///   - settleLimit: How long keys typed ahead wait, at most, for the
    ///     app to settle after the key before them.
    public init(
        terminal: Terminal = Terminal(), clock: any Clock<Duration> = ContinuousClock(),
        frameInterval: Duration = .milliseconds(120), settleLimit: Duration = .seconds(2)
    ) {
        self.terminal = terminal
        self.clock = clock
        self.frameInterval = frameInterval
        self.settleLimit = settleLimit
    }

    /// Whether this terminal shows images inline.
    public var imageProtocol: InlineImageProtocol? { terminal.imageProtocol }

    /// Runs the front end until `host`'s run ends (its state becomes
    /// terminal, it is cancelled or it fails); the terminal is restored
    /// after, whatever happens.
    ///
    /// Draws `screen` of the host's state whenever what it shows changes:
    /// the state, the state of a child run it reads through its handle
    /// (`Child.state`), the terminal's size, or the frame of an animation, which
    /// ticks while `isAnimating` says so. Each key goes to the binding the
    /// screen shown offers for it; the next key is handed on once that
    /// binding has returned and, when `isSettled` says the app has not
    /// settled (a change on its way, something asked for and not yet
    /// answered), once it has — or `settleLimit` has passed: keys typed
    /// ahead meet the screen they were typed for. Ctrl-Z suspends the
    /// program and redraws it when it is continued. `SIGTERM`, `SIGHUP` and
    /// `SIGINT` cancel the host's run and return once it has ended, as
    /// when the user quits: the caller closes what it opened.
    ///
    /// - Throws: ``TerminalError`` when the terminal cannot show a full
    ///   screen.
    public func run<T: BaseTransducer>(
        _ host: ObservableTransducer<T>,
        isAnimating: @escaping @MainActor (T.State) -> Bool = { _ in false },
        isSettled: @escaping @MainActor (T.State) -> Bool = { _ in true },
        screen: @escaping @MainActor (T.State, ScreenContext) -> Screen
    ) async throws(TerminalError) {
        try terminal.start()
        defer { terminal.stop() }
        let (inputs, continuation) = AsyncStream<TerminalInput>.makeStream()
        let sources = TerminalSources(terminal: terminal, inputs: continuation)
        defer { sources.cancel() }

        var frame = 0
        var animation: Task<Void, Never>?
        defer { animation?.cancel() }
        var shown: (canvas: Canvas, context: ScreenContext)?
        var current = Screen(canvas: Canvas(width: 1, height: 1), bindings: [])
        var forceRedraw = true
        var typeAhead = TypeAhead()
        // How far a screen taller than the terminal is scrolled; back to
        // the top when another screen is shown (its title changes).
        var scroll = 0
        // One tracking at a time: a key or an animation's tick redraws
        // without a change, and must not add a tracking each time.
        let tracker = StateTracker()
        var settleTimer: Task<Void, Never>?
        defer { settleTimer?.cancel() }

        /// Builds the screen of the host's state and draws it if it differs
        /// from the one shown, and asks to be told of the next change of
        /// anything the screen read: the host's state, and the state of
        /// each child run it showed (``Oak/Child/state``), which changes
        /// without the host's.
        func redraw() {
            let (width, height) = terminal.size
            var (animating, next, context) = tracker.track {
                _ = host.isRunning
                let state = host.state
                let animating = isAnimating(state)
                let context = ScreenContext(
                    width: width, height: height, frame: animating ? frame : 0, imageProtocol: terminal.imageProtocol)
                return (animating, screen(state, context), context)
            } onChange: {
                continuation.yield(.changed)
            }
            let pinned = next.canvas.pinnedLines
            if let shown, shown.canvas.lines.prefix(pinned) != next.canvas.lines.prefix(pinned) { scroll = 0 }
            scroll = min(scroll, next.canvas.maxScroll)
            next.canvas.scroll = scroll
            if animating, animation == nil {
                animation = Task { [clock, frameInterval] in
                    while true {
                        do {
                            try await clock.sleep(for: frameInterval)
                        } catch {
                            return
                        }
                        continuation.yield(.tick)
                    }
                }
            } else if !animating {
                animation?.cancel()
                animation = nil
                frame = 0
            }
            current = next
            if forceRedraw || shown?.canvas != next.canvas || shown?.context != context {
                terminal.draw(next.canvas)
                shown = (next.canvas, context)
                forceRedraw = false
            }
        }

        redraw()
        var isStopping = false
        for await input in inputs {
            var waitedEnough = false
            switch input {
            case .key(.suspend):
                terminal.suspend()
                forceRedraw = true
            case .key(let key):
                typeAhead.append(key)
            case .settleTimeout:
                waitedEnough = true
            case .resized:
                terminal.resize()
                forceRedraw = true
            case .continued:
                terminal.invalidate()
                forceRedraw = true
            case .tick:
                frame += 1
            case .changed:
                break
            case .terminate:
                // As a deploy or a closed terminal asks: the run is ended
                // (its operations cancelled), the screen given back once it
                // has, and the app closes what it opened as after quitting.
                isStopping = true
                typeAhead = TypeAhead()
                host.cancel()
            }
            guard host.isRunning else { break }
            redraw()
            guard !isStopping else { continue }
            // One key at a time: the binding returns once its intent has
            // been processed, and the next waits until the app has settled;
            // keys typed meanwhile wait their turn, in order.
            while let key = typeAhead.next(settled: isSettled(host.state), waitedEnough: waitedEnough) {
                settleTimer?.cancel()
                // A key the screen does not use scrolls it, when it is
                // taller than the terminal (↑ ↓ PgUp PgDn Home End).
                if await !current.handle(key), let offset = current.canvas.scroll(after: key) {
                    scroll = offset
                }
                guard host.isRunning else { return }
                redraw()
                let settled = isSettled(host.state)
                typeAhead.handled(settled: settled)
                if !settled {
                    settleTimer = Task { [clock, settleLimit] in
                        guard (try? await clock.sleep(for: settleLimit)) != nil else { return }
                        continuation.yield(.settleTimeout)
                    }
                }
            }
        }
    }
}

extension TerminalFrontEnd {
    /// Runs the app's root `type` from `initialState` with `env`, hosted by
    /// an `ObservableTransducer` on the main actor, until its run ends: the
    /// user quit (its state became terminal), or it failed. `start` is told
    /// to the host first (such as sending `.start`); the other parameters
    /// are ``run(_:isAnimating:isSettled:screen:)``'s, and `screen` also
    /// gets the host, whose proxy its keys' intents send to. The host is
    /// cancelled on the way out, whatever happens.
    ///
    /// - Throws: ``TerminalError`` when the terminal cannot show the app,
    ///   or what ended the run otherwise (its cancellation is not an error).
    public func run<T: EffectTransducer>(
        _ type: T.Type, initialState: T.State, env: T.Env,
        start: @MainActor (ObservableTransducer<T>) async -> Void = { _ in },
        isAnimating: @escaping @MainActor (T.State) -> Bool = { _ in false },
        isSettled: @escaping @MainActor (T.State) -> Bool = { _ in true },
        screen: @escaping @MainActor (T.State, ObservableTransducer<T>, ScreenContext) -> Screen
    ) async throws {
        var failure: (any Error)?
        let host = ObservableTransducer<T>(initialState: initialState, env: env) { ending in
            if case .failure(let error) = ending { failure = error }
        }
        defer { host.cancel() }
        await start(host)
        // The front end returns once the run has ended (its completion has
        // run): what ended it is known.
        try await run(host, isAnimating: isAnimating, isSettled: isSettled) { state, context in
            screen(state, host, context)
        }
        if let failure, !(failure is CancellationError), failure as? TransducerError != .cancelled { throw failure }
    }
}

/// Where the front end's inputs come from: the terminal's input becoming
/// readable (its keys are read then, on the main actor), `SIGWINCH`,
/// `SIGCONT` and `SIGTSTP`. Dispatch sources on the main queue, so nothing
/// polls.
@MainActor
final class TerminalSources {
    private var sources: [any DispatchSourceProtocol] = []

    init(terminal: Terminal, inputs: AsyncStream<TerminalInput>.Continuation) {
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { [weak terminal] in
            MainActor.assumeIsolated {
                // Every key waiting, in order.
                while let key = terminal?.readKey() {
                    inputs.yield(key == .resize ? .resized : .key(key))
                }
            }
        }
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler { inputs.yield(.resized) }
        let resume = DispatchSource.makeSignalSource(signal: SIGCONT, queue: .main)
        resume.setEventHandler { inputs.yield(.continued) }
        // Stopped from outside (`kill -TSTP`): as Ctrl-Z, the terminal is
        // given back first.
        let stop = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .main)
        stop.setEventHandler { inputs.yield(.key(.suspend)) }
        sources = [input, resize, resume, stop]
        // Asked to stop (a deploy's SIGTERM, a closed terminal's SIGHUP,
        // `kill -INT`): the app stops as when the user quits. Ignored by
        // the process meanwhile, as a dispatch source needs; given back
        // when the front end ends, so that a second signal while the app
        // closes what it opened ends it at once.
        for signalNumber in Self.stopSignals {
            previousDispositions.append(signal(signalNumber, SIG_IGN))
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler { inputs.yield(.terminate) }
            sources.append(source)
        }
        for source in sources { source.resume() }
    }

    /// The signals that stop the app.
    static let stopSignals = [SIGTERM, SIGHUP, SIGINT]

    /// What the stop signals did before (each `signal`'s answer).
    private var previousDispositions: [(@convention(c) (Int32) -> Void)?] = []

    func cancel() {
        for source in sources { source.cancel() }
        sources = []
        for (signalNumber, previous) in zip(Self.stopSignals, previousDispositions) {
            signal(signalNumber, previous ?? SIG_DFL)
        }
        previousDispositions = []
    }
}
