// The forms of a page, and the intents they are bound to. A view renders a
// button with the intent it performs, as a terminal view binds a key to an
// intent: the page carries only the binding's key, and a post of that key
// performs the intent bound when the page of the current state was rendered.
// No table of names maps posts back to intents.

import Foundation
import Oak

/// The forms of one rendering of a session's page, and the intents they are
/// bound to.
///
/// A view binds each form to what it does, by value, under a key that names
/// it in the page:
///
/// ```swift
/// context.button("Next", key: "meeting.next", intent: meeting(.next))
/// ```
///
/// The page posts the key (with the session's ``token``). The host renders
/// the session's current state again with a context that keeps its bindings
/// and performs the one the post names: a key the current page does not
/// offer is refused as out of date, and the intent itself is refused as
/// Oak's `IntentResult.stale` once the state has left the scope it was made in.
///
/// A key names one binding on a page. Keys of items in a list carry the
/// item's identity (`"list.open:\(standup.id)"`), so that a post from an
/// older page never performs the intent of another item. A key bound twice on
/// one page performs nothing (``duplicateKeys`` lists them, for tests).
///
/// What many sessions show alike is rendered once and shared through
/// ``shared(_:render:)``.
///
/// Made, used and discarded on the session's isolation, for one rendering.
public final class WebContext {
    /// The session's anti-forgery token, as it goes into a page: every form
    /// carries it. In a rendering to share, ``tokenPlaceholder``.
    public let token: HTML
    /// Whether the bindings are kept (to perform a post); rendering a page to
    /// send only needs their keys.
    public let keepsBindings: Bool
    /// Where renderings are shared, when this one is to be sent.
    private let cache: WebRenderCache?

    /// What a shared rendering carries in place of a session's token: the
    /// host replaces it as it sends the page. Control characters, which text
    /// escaped into a page never contains.
    public static let tokenPlaceholder = HTML(trusted: "\u{1}oak-token\u{1}")

    private var bindings: [String: (WebForm) -> IntentResult?] = [:]
    /// The keys bound more than once on this page, in the order found.
    public private(set) var duplicateKeys: [String] = []

    /// The context of a session whose token is `token`; its bindings are kept
    /// if `keepsBindings`.
    public init(token: String, keepsBindings: Bool = true) {
        self.token = "\(token)"
        self.keepsBindings = keepsBindings
        self.cache = nil
    }

    /// The context of a rendering to send that shares what it can through
    /// `cache`: its forms carry ``tokenPlaceholder``, which the sender
    /// replaces with the session's token (``WebRenderCache/page(_:token:)``),
    /// and it keeps no bindings.
    public init(sharingThrough cache: WebRenderCache) {
        self.token = Self.tokenPlaceholder
        self.keepsBindings = false
        self.cache = cache
    }

    // MARK: Sharing

    /// What `render` renders, shared by every session whose page shows the
    /// same `key` while it is kept: rendered once, then reused as it is.
    ///
    /// `key` must stand for everything `render` reads (a meeting's state, a
    /// list and its selection) and nothing of one session (a session's
    /// rendering would be shown to another), and be of a type of the view's
    /// own, so that two views never share a key. The forms rendered inside
    /// are bound as everywhere else: a post renders the session's page again
    /// with its bindings kept, never from the cache.
    ///
    /// ```swift
    /// struct MeetingSection: Hashable, Sendable { let meeting: RecordMeeting.State }
    ///
    /// context.shared(MeetingSection(meeting: meeting)) {
    ///     meetingSection(meeting, context: context)
    /// }
    /// ```
    public func shared<Key: Hashable & Sendable>(_ key: Key, render: () -> HTML) -> HTML {
        guard let cache else { return render() }
        return cache.rendering(of: key, render: render)
    }

    // MARK: Bindings

    /// Binds `key` to `perform`, which gets the posted form and returns what
    /// the intent it invoked did (`nil`: nothing is offered for that form).
    /// Returns `key`, for a form's `intent` field or a submit button's value.
    @discardableResult
    public func bind(_ key: String, perform: @escaping (WebForm) -> IntentResult?) -> String {
        guard keepsBindings else { return key }
        if bindings.updateValue(perform, forKey: key) != nil { duplicateKeys.append(key) }
        return key
    }

    /// Binds `key` to `intent` (made only if the key is posted; `nil`: not
    /// offered). Returns `key`.
    @discardableResult
    public func bind<Event>(_ key: String, to intent: @autoclosure @escaping () -> Intent<Event>?) -> String {
        bind(key) { _ in intent()?() }
    }

    /// The keys bound on this page (when its bindings are kept).
    public var keys: Set<String> { Set(bindings.keys) }

    /// Performs the binding `form` posts (its `intent` field): what the
    /// intent did, or `nil` when this page binds no such key, binds it more
    /// than once, or offers nothing for that form.
    public func perform(_ form: WebForm) -> IntentResult? {
        let key = form.intent
        guard !duplicateKeys.contains(key), let perform = bindings[key] else { return nil }
        return perform(form)
    }

    // MARK: Forms

    /// A form with one button that performs `intent`, posted as `key`.
    public func button<Event>(
        _ label: String, key: String, intent: @autoclosure @escaping () -> Intent<Event>?, isPrimary: Bool = false
    ) -> HTML {
        button(label, key: bind(key, to: intent()), isPrimary: isPrimary)
    }

    /// A form with one button that posts `key`, bound by ``bind(_:perform:)``.
    public func button(_ label: String, key: String, isPrimary: Bool = false) -> HTML {
        let style: HTML = isPrimary ? " class=\"primary\"" : ""
        return """
            <form method="post" action="\(WebPage.intentPath)" class="intent">\
            <input type="hidden" name="token" value="\(token)">\
            <input type="hidden" name="intent" value="\(key)">\
            <button type="submit"\(style)>\(label)</button></form>
            """
    }

    /// A form with a number field and a button that performs the intent
    /// `intent` makes of the number typed (a positive whole number of at most
    /// nine digits; anything else performs nothing), posted as `key`.
    public func numberForm<Event>(
        _ label: String, key: String, placeholder: String, intent: @escaping (Int) -> Intent<Event>?
    ) -> HTML {
        bind(key) { form in form.number().flatMap(intent)?() }
        return """
            <form method="post" action="\(WebPage.intentPath)" class="intent number">\
            <input type="hidden" name="token" value="\(token)">\
            <input type="hidden" name="intent" value="\(key)">\
            <input type="number" name="number" min="1" step="1" required inputmode="numeric" \
            placeholder="\(placeholder)" \
            aria-label="\(placeholder)">\
            <button type="submit">\(label)</button></form>
            """
    }

    /// The place of the page's microphone: with the page's script, a
    /// button that, while it is on, streams the microphone to the session's
    /// stream `stream` (`/streams/<stream>`, a WebSocket) as 16 kHz mono
    /// 16-bit little-endian PCM in chunks of 100 ms, and beside it the
    /// microphone's state or why the server closed the stream. Without
    /// JavaScript, nothing. The stream stops when a pushed page no longer
    /// has this place.
    public func microphone(_ stream: String) -> HTML {
        "<div class=\"microphone\" data-microphone=\"\(stream)\" data-token=\"\(token)\"></div>"
    }
}

/// The fields a form posted (`application/x-www-form-urlencoded`).
public struct WebForm: Sendable, Hashable {
    /// The fields, by name; the first value of a repeated name.
    public var fields: [String: String]

    /// A form with these fields.
    public init(fields: [String: String]) {
        self.fields = fields
    }

    /// The key the form posted (its `intent` field: the binding it
    /// performs, ``WebContext/bind(_:perform:)``), or the empty string.
    public var intent: String { fields["intent"] ?? "" }

    /// The field `name` as a positive whole number of at most 9 digits, or
    /// `nil`.
    public func number(_ name: String = "number") -> Int? {
        fields[name].flatMap { WebForm.positiveNumber(Substring($0)) }
    }

    /// The fields of a form body; a field's first value wins, names and
    /// values are percent-decoded (`+` is a space).
    public static func decode(_ body: String) -> WebForm {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeComponent(parts[0]) else { continue }
            let value = parts.count > 1 ? decodeComponent(parts[1]) : ""
            if fields[name] == nil, let value { fields[name] = value }
        }
        return WebForm(fields: fields)
    }

    private static func decodeComponent(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// A positive decimal number of at most 9 digits.
    public static func positiveNumber(_ text: Substring) -> Int? {
        guard (1...9).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(text), number > 0
        else { return nil }
        return number
    }
}
