// What the generic web host needs to know about an app: the root transducer
// every browser session runs, the environment of its runs, how its states
// render, which intents its forms post and which files its pages show. An
// app's web front end is a value of this protocol, built from its scenes'
// web views: no feature logic lives here or in the host.

import Foundation
import Oak
import WebUI

/// An app served to browsers by a ``WebHost``: one run of ``Root`` per
/// browser session.
///
/// Its pages bind their forms to the intents they perform
/// (WebUI's `WebContext.button(_:key:intent:isPrimary:)`): a post performs the
/// intent its key is bound to on the page of the session's current state.
///
/// ```swift
/// struct CounterWeb: WebApplication {
///     var environment: Void { () }
///     func initialState() -> Counter.State { Counter.State() }
///     func start(_ proxy: Counter.Proxy) async {}
///     func content(of state: Counter.State, session: WebSessionContext<Counter>) -> HTML {
///         let intents = session.intents(scope: { _ in true })
///         return "<p>\(state.count)</p>\(session.forms.button("+1", key: "increment", intent: intents(.increment)))"
///     }
/// }
/// ```
public protocol WebApplication: Sendable {
    /// The transducer each browser session runs.
    associatedtype Root: EffectTransducer where Root.State: Equatable & Sendable, Root.Env: Sendable

    /// The app's name: the title of pages that are only messages.
    var name: String { get }

    /// The environment of every session's run: the features' ports, shared
    /// by all sessions.
    var environment: Root.Env { get }

    /// The state a new session starts in.
    func initialState() -> Root.State

    /// Sends the events a new session's run starts with.
    func start(_ proxy: Root.Proxy) async

    /// Sends the events a new session's run starts with when its page was
    /// opened at `path` (one ``opens(_:)`` accepts): the app opens the
    /// screen that address names. By default ``start(_:)``, wherever the
    /// page was opened.
    func start(_ proxy: Root.Proxy, at path: String) async

    /// Whether a page may be opened at `path` (a new session then starts
    /// there: ``start(_:at:)``). By default only `/`.
    func opens(_ path: String) -> Bool

    /// The address of the screen `state` shows (an absolute path such as
    /// `/standups/42`), which the page's address bar follows: reloaded — or
    /// reconnected to another process of the app after its server went
    /// away — the page opens the same screen, with no extra click. By
    /// default `/`.
    func path(of state: Root.State) -> String

    /// Whether `state` is worth showing as a session's first page: the app
    /// has left the states in which it is still loading what the page
    /// shows. The first response waits for such a state, for at most
    /// ``SessionLimits/firstPaint``. By default every state is.
    func isSettled(_ state: Root.State) -> Bool

    /// The title of the page that shows `state`. By default ``name``.
    func title(of state: Root.State) -> String

    /// The content of the page for `state`: its forms carry `session`'s
    /// token and are bound to the intents they perform (`session.forms`).
    /// Rendered to be sent, and again with its bindings kept when a form is
    /// posted: a post performs the binding its key names on the page of the
    /// session's current state.
    func content(of state: Root.State, session: WebSessionContext<Root>) -> HTML

    /// The address (an absolute `http` or `https` URL) of another server
    /// of the app where the intent `form` names must be performed instead,
    /// asked before the intent is performed: the browser is sent there
    /// and this session performs nothing. Several processes serving one
    /// app use it for what must happen in one of them (a meeting runs where
    /// its room is). `form.intent` is the key the form posted. By default
    /// `nil`: everything is performed here.
    func redirect(for form: WebForm, in state: Root.State) async -> String?

    /// A file the page of `state` refers to (an image), by its path; `nil`
    /// when there is none. By default there is none.
    func resource(at path: String, in state: Root.State) -> WebResource?

    /// The app's style sheet, served after the host's base style. By
    /// default empty.
    var style: String { get }

    /// Opens the stream `name` that the page of `state` asks for (such as
    /// its microphone, WebUI's `WebContext.microphone(_:)`), once the host has
    /// checked the session's cookie, its token and the origin: the stream,
    /// or a refusal that closes the connection with a reason the page
    /// shows. By default every stream is refused as unavailable.
    func openStream(
        _ name: String, in state: Root.State, session: WebSessionContext<Root>
    ) -> WebStreamOpening

    /// Runs a session's root transducer against `state`, on `session` (the
    /// session's actor), until it ends. Leave the default: it is a
    /// requirement only so that the run is compiled for the app's own types
    /// (the host is generic, and a run specialised for `Root` has smaller
    /// frames and faster steps than a generic one).
    func run(state: WebSessionState<Root.State>, proxy: Root.Proxy, session: isolated any Actor) async throws
}

extension WebApplication {
    /// Runs `Root` with ``environment``, its outputs ignored (the pages read
    /// the state).
    @inlinable
    public func run(state: WebSessionState<Root.State>, proxy: Root.Proxy, session: isolated any Actor) async throws {
        _ = try await Root.run(
            storage: state, proxy: proxy, env: environment, isolation: session)
    }

    /// Starts as a page opened at `/` does.
    public func start(_ proxy: Root.Proxy, at path: String) async { await start(proxy) }
    /// Only `/`.
    public func opens(_ path: String) -> Bool { path == "/" }
    /// `/`.
    public func path(of state: Root.State) -> String { "/" }
    /// Every state is settled.
    public func isSettled(_ state: Root.State) -> Bool { true }
    /// The app's name.
    public func title(of state: Root.State) -> String { name }
    /// No file.
    public func resource(at path: String, in state: Root.State) -> WebResource? { nil }

    /// Everything is performed here.
    public func redirect(for form: WebForm, in state: Root.State) async -> String? { nil }
    /// No style of the app's own.
    public var style: String { "" }
    /// No stream.
    public func openStream(
        _ name: String, in state: Root.State, session: WebSessionContext<Root>
    ) -> WebStreamOpening {
        .failure(.unavailable("This page has no stream \(name)."))
    }
    /// "Oak".
    public var name: String { "Oak" }
}

/// What an app's views need of the browser session that shows them: the
/// forms with the session's token, and the intents of its run.
///
/// Made and used on the session's isolation, while a page is rendered or a
/// form is performed.
public struct WebSessionContext<Root: BaseTransducer> {
    /// The forms of the session's pages (they carry its token).
    public let forms: WebContext
    /// The session's run's event channel.
    public let proxy: Root.Proxy
    /// Reads the session's current state (for intents that check their
    /// scope).
    public let current: () -> Root.State

    /// A context for a session's pages.
    public init(forms: WebContext, proxy: Root.Proxy, current: @escaping () -> Root.State) {
        self.forms = forms
        self.proxy = proxy
        self.current = current
    }

    /// The intents of a model of the current state whose scope is
    /// `scope(state)`: refused once the state has left it.
    public func intents<Scope: Hashable>(scope: @escaping (Root.State) -> Scope) -> Intents<Root, Scope> {
        Intents(for: current(), proxy: proxy, scope: scope, current: current)
    }
}

/// A file a page shows: its bytes and media type.
public struct WebResource: Sendable, Hashable {
    /// The bytes.
    public var data: Data
    /// The media type, such as `image/png`.
    public var contentType: String

    /// A file; its media type is guessed from its first bytes when not
    /// given (PNG, JPEG, GIF, else `application/octet-stream`).
    public init(data: Data, contentType: String? = nil) {
        self.data = data
        self.contentType = contentType ?? WebResource.mediaType(of: data)
    }

    /// The media type of an image, from its first bytes.
    public static func mediaType(of data: Data) -> String {
        let bytes = Array(data.prefix(4))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        return "application/octet-stream"
    }
}

/// The state of a session's run, kept in the session's actor: the run reads
/// and writes it there, and every write tells the session, which tells its
/// open pages.
///
/// Not `Sendable`: it never leaves its session's actor.
public final class WebSessionState<State: Equatable>: Storage {
    /// The state; every write that changes it is reported to the session
    /// (a run writes after every update, also one that changes nothing,
    /// such as a meeting's tick while a question is open: no page is
    /// pushed for those).
    public var value: State {
        didSet {
            if value != oldValue { didChange?() }
        }
    }

    /// Called after every write that changes the state, on the session's
    /// isolation.
    var didChange: (() -> Void)?

    init(_ value: State) {
        self.value = value
    }
}
