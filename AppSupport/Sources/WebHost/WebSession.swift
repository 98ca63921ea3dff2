// One browser session: an actor that hosts a run of the app's root
// transducer (Oak's `TransducerHost`: the state lives in the actor's
// storage, `WebSessionState`, which the run reads and writes on the actor),
// renders its states
// with the app's views, performs the intents its forms post, and tells the
// session's open pages when the state changes — the root's, or that of a
// child run a page read through its handle (`Child.state`, observed with
// `withObservationTracking`). Every change of state comes from the
// transducers; the session only reads the state and invokes intents of
// models derived from it.

import Foundation
import Oak
import Observation
import WebUI

/// The app, hosted for one browser session.
actor WebSession<App: WebApplication>: TransducerHost {
    typealias Hosted = App.Root
    typealias HostStorage = WebSessionState<App.Root.State>

    /// The session's id: the value of its cookie. Unguessable (see
    /// ``SessionStore/randomToken()``).
    nonisolated let id: String
    /// The token every intent of this session carries.
    nonisolated let token: String
    /// The token as it goes into a page (escaped once, for every page sent).
    nonisolated let tokenMarkup: HTML
    /// The run's event channel.
    nonisolated let proxy: App.Root.Proxy
    /// The state of the run.
    let storage: WebSessionState<App.Root.State>

    private let app: App
    /// What this session's pages share with the other sessions' pages.
    private let renderings: WebRenderCache
    /// What the pages' rendering and the settled check read of children
    /// and shared runs, each tracked once at a time.
    private let pageTracker = StateTracker()
    private let settledTracker = StateTracker()
    /// Who is told when what the pages show changes.
    private nonisolated let pages: PageListeners
    /// The run, once started.
    private var run: Task<Void, Never>?

    /// Counts the changes of what the pages show: the id of each pushed
    /// page.
    nonisolated var version: Int { pages.version }
    /// How many pages of this session are open (their event streams).
    nonisolated var openPages: Int { pages.openPages }
    /// Whether the run has ended.
    nonisolated var hasEnded: Bool { pages.hasEnded }

    /// Inspects the run, if the host was started with an inspector.
    private let inspector: (any TransducerInspector)?

    init(
        app: App, id: String, token: String, renderings: WebRenderCache, maxOpenPages: Int,
        inspector: (any TransducerInspector)? = nil
    ) {
        self.app = app
        self.pages = PageListeners(maxOpenPages: maxOpenPages)
        self.inspector = inspector
        self.renderings = renderings
        self.id = id
        self.token = token
        self.tokenMarkup = "\(token)"
        self.proxy = App.Root.Proxy()
        self.storage = WebSessionState(app.initialState())
    }

    /// Starts the run with the app's environment and its first events, for
    /// a page opened at `path`.
    func start(at path: String = "/") async {
        guard run == nil else { return }
        let pages = self.pages
        storage.didChange = { pages.changed() }
        let app = self.app
        let inspector = self.inspector
        run = Task {
            do {
                // The app runs it, so that it is compiled for the app's types.
                try await TransducerInspection.$inspector.withValue(inspector) {
                    try await app.run(state: self.storage, proxy: self.proxy, session: self)
                }
            } catch {
                // Cancelled when the session expires or the server stops;
                // anything else ends the session the same way: its page
                // reloads into a new one.
            }
            self.pages.end()
        }
        await app.start(proxy, at: path)
    }

    /// Ends the run (every operation of every feature included) and waits
    /// until it has ended.
    func stop() async {
        proxy.cancel()
        await run?.value
        pages.end()
    }

    /// What the forms and intents of this session's pages need: a page to
    /// send shares what it can with other sessions' pages (its token put in
    /// as it is sent, ``sendable(_:)``), a page whose form was posted keeps
    /// its bindings.
    private func context(keepsBindings: Bool = false) -> WebSessionContext<App.Root> {
        let storage = self.storage
        let forms =
            keepsBindings ? WebContext(token: token, keepsBindings: true) : WebContext(sharingThrough: renderings)
        return WebSessionContext(forms: forms, proxy: proxy) { storage.value }
    }

    /// A page rendered to send, with this session's token in its forms.
    private func sendable(_ page: HTML) -> HTML {
        HTML(trusted: WebRenderCache.page(page.rendered, token: tokenMarkup))
    }

    // MARK: Rendering
    //
    // Out of line: inlined into a caller's async frame, such as an event
    // stream's, each copy of the state would stay in it as long as the
    // stream is open.

    /// The whole page of the current state.
    @inline(never)
    func page() -> HTML {
        let state = storage.value
        return tracked(by: pageTracker) {
            sendable(
                WebPage.document(
                    title: app.title(of: state), content: app.content(of: state, session: context()),
                    token: tokenMarkup))
        }
    }

    /// The whole page, once the app has settled or `timeout` has passed on
    /// `clock`, whichever comes first: a new session's first response.
    func settledPage(within timeout: Duration, clock: any Clock<Duration>) async -> HTML {
        if !isSettled, timeout > .zero {
            let changes = pages.listen(isPage: false)
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in changes.stream {
                        if await self.isSettled { return }
                    }
                }
                group.addTask {
                    try? await clock.sleep(for: timeout)
                }
                await group.next()
                group.cancelAll()
            }
            pages.remove(changes.id)
        }
        return page()
    }

    /// Whether the current state is settled (or the run has ended: nothing
    /// will settle any more). Tracked: a child's state it read changing
    /// tells the listeners.
    var isSettled: Bool { hasEnded || tracked(by: settledTracker) { app.isSettled(storage.value) } }

    /// The content of the current state for a page that is open
    /// (``content()``, without the session's token: the page's script posts
    /// its forms with the token of the page it loaded), and when that state
    /// was written (``changedAt``).
    @inline(never)
    func push() -> (content: HTML, changedAt: Int64) {
        (content(), pages.changedAt)
    }

    /// The content of the current state, for a page that is open, led by
    /// the page's title and address for the script to set
    /// (`data-page-title`, `data-page-path`): the browser's tab and
    /// address bar follow the state too. Its forms carry
    /// WebUI's `WebContext.tokenPlaceholder`, the same for every session: it is
    /// pushed as it is, and the page's script puts its token in a form it
    /// posts.
    @inline(never)
    func content() -> HTML {
        let state = storage.value
        return tracked(by: pageTracker) {
            """
            <template data-page-title="\(app.title(of: state))" data-page-path="\(app.path(of: state))"></template>\
            \(app.content(of: state, session: context()))
            """
        }
    }

    /// What `body` reads of the state, tracked: when a child's state it
    /// read (``Oak/Child/state``) changes — which leaves the root's state as
    /// it was — the open pages are told as for a change of the root.
    ///
    /// Each rendering replaces the tracking of the one before by
    /// `tracker` (a session renders at every change of its root's state,
    /// and a child it shows may stay as it was for thousands of them); a
    /// tracking also ends at the first change it is told of.
    private func tracked<R>(by tracker: StateTracker, _ body: () -> R) -> R {
        // Not `withObservationTracking`: a shared run (a meeting's room)
        // publishes on its own isolation, and a publication between the
        // page's read and the tracking's installation must not be missed.
        //
        // Told where the change happens (the pages' listeners take it from
        // any isolation): a room's publication reaches each of its viewers'
        // pages without a task and a hop to each viewer's session.
        tracker.track(body) { [pages] in pages.changed() }
    }

    /// A file the current state's page shows, if any.
    @inline(never)
    func resource(at path: String) -> WebResource? {
        app.resource(at: path, in: storage.value)
    }

    /// Performs the intent `form`'s key is bound to on the page of the
    /// current state (rendered again, its bindings kept), or says where it
    /// must be performed instead (asked first, in the same turn of the
    /// session).
    @inline(never)
    func perform(_ form: WebForm) async -> IntentDisposition {
        if let address = await app.redirect(for: form, in: storage.value) { return .elsewhere(address) }
        let context = context(keepsBindings: true)
        _ = app.content(of: storage.value, session: context)
        return .performed(context.forms.perform(form))
    }

    /// Opens the stream `name` of the current state's page; refused once
    /// the session has ended.
    @inline(never)
    func openStream(_ name: String) -> WebStreamOpening {
        guard !hasEnded else { return .failure(.unavailable("Your session has ended. Reload the page.")) }
        return app.openStream(name, in: storage.value, session: context(keepsBindings: true))
    }

    // MARK: Open pages

    /// A stream of what an open page is to be sent, from now until the
    /// session ends or ``closePage(_:)``; counts as an open page.
    nonisolated func openPage() -> (id: UUID, stream: AsyncStream<PageSignal>) {
        pages.listen(isPage: true)
    }

    /// The page `id` has closed (its connection ended).
    nonisolated func closePage(_ id: UUID) {
        pages.remove(id)
    }

    /// Tells every open page that the server is stopping (its stream ends
    /// once the session stops); nothing is pushed to them afterwards.
    nonisolated func tellPagesStopping() {
        pages.tellStopping()
    }

    /// Sends every open page a comment: a page whose connection has gone
    /// fails to take it, which closes it.
    nonisolated func pingPages() {
        pages.ping()
    }

    /// Returns once exactly `count` pages are open.
    nonisolated func waitForOpenPages(_ count: Int) async {
        await pages.waitForOpenPages(count)
    }
}

/// What became of an intent a form posted.
enum IntentDisposition: Equatable, Sendable {
    /// Invoked here: the result, or `nil` when the state offers no such
    /// intent.
    case performed(IntentResult?)
    /// To be performed by the server at this address.
    case elsewhere(String)
}

/// Stamps on every push, for load tests (`OAK_WEB_PUSH_TIMING=1` in the
/// server's environment): a comment line before each event,
/// `: changed <µs> written <µs>`, when the session's state changed and when
/// the push was handed to the connection, in microseconds since 1970 (the
/// system's clock, so that a client on the same machine can compare its own
/// receipt). Off by default: the bytes on the wire are the page's only.
enum PushTiming {
    static let isOn = ProcessInfo.processInfo.environment["OAK_WEB_PUSH_TIMING"] == "1"

    /// Now, in microseconds since 1970.
    static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The comment line that stamps a push of a state changed at
    /// `changedAt` when stamps are on (else nothing).
    static func stamp(changedAt: Int64) -> String {
        isOn ? ": changed \(changedAt) written \(now())\n" : ""
    }
}
