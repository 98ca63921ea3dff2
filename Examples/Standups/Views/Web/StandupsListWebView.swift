// The list of stand-ups in a page: a card each, with its length and
// attendees, and the form that adds one.

import Foundation
import Models
import Oak
import RecordMeeting
import StandupDetail
import StandupForm
import StandupsIntents
import StandupsList
import StandupsMain
import StandupsProvider
import WebUI

extension MainWebView {
    static func list(
        _ state: Main.State, app: Intents<Main, Main.Scope>, newID: @escaping () -> UUID,
        context: WebContext
    ) -> HTML {
        switch state.data.phase {
        case .idle, .loading:
            return "<p class=\"loading\" id=\"loading\">Loading your stand-ups…</p>"
        case .failed(let failure) where failure.isDamaged:
            return """
                <section class="message" id="load-failure"><h2>\(failure.summary)</h2><p>\(failure.detail)</p>
                <p>The damaged file is kept aside, untouched. Start over with an empty list or with the samples.</p>
                \(context.button("Start empty", key: "app.startOver", intent: app(.startOver(withSamples: false))))\
                \(context.button(
                    "Start with the samples", key: "app.startOverWithSamples",
                    intent: app(.startOver(withSamples: true))))</section>
                """
        case .failed(let failure):
            // Away (locked, busy, unreachable), not damaged: the stand-ups
            // are still there; nothing offers to replace them.
            return """
                <section class="message" id="load-failure"><h2>\(failure.summary)</h2><p>\(failure.detail)</p>
                <p>Your stand-ups are kept. This page tries again by itself.</p>
                \(context.button("Try again", key: "app.retryLoad", intent: app(.retryLoad), isPrimary: true))\
                </section>
                """
        case .loaded:
            break
        }
        let cards = state.data.standups.map { standup in
            HTML(
                """
                <li class="card theme-\(standup.theme.rawValue)" data-standup="\(standup.id.uuidString)">\
                <form method="post" action="\(WebPage.intentPath)" class="intent">\
                <input type="hidden" name="token" value="\(context.token)">\
                <input type="hidden" name="intent" \
                value="\(context.bind("list.open:\(standup.id.uuidString)", to: app(.open(standup.id))))">\
                <button type="submit" aria-label="\(name(standup)), \(standup.minutes) min · \(attendeeCount(standup))">\
                <strong>\(name(standup))</strong><span class="facts">\
                <span class="fact">\(Icons.clock)\(standup.minutes) min</span>\
                <span class="fact">\(Icons.people)\(attendeeCount(standup))</span></span></button></form></li>
                """)
        }
        let empty: HTML? = cards.isEmpty ? "<p class=\"empty\" id=\"empty\">No stand-ups yet.</p>" : nil
        return """
            <section class="list"><h2>Stand-ups</h2>\(empty)<ul class="cards" id="standups">\(HTML.join(cards))</ul>
            \(context.button(
                "New stand-up", key: "list.add", intent: app(.list(.add(newID(), attendee: newID()))), isPrimary: true))\
            </section>
            """
    }
}
