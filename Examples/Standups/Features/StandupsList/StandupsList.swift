// The list of stand-ups: which card is selected, and the sheet that adds a
// stand-up. The stand-ups themselves are the provider's; the list asks its
// parent to save a new one. A pure transducer that the app embeds.

import Foundation
import Models
import Oak
import StandupForm

/// The StandupsList transducer.
public enum StandupsList: Transducer {
    /// The list's state.
    public struct State: NonTerminal, Equatable, Hashable, Sendable {
        /// The selected card, by position.
        public var selection: Int
        /// The form adding a stand-up, while it is open.
        public var adding: StandupForm.State?

        /// A list with the first card selected and no sheet.
        public init(selection: Int = 0, adding: StandupForm.State? = nil) {
            self.selection = selection
            self.adding = adding
        }
    }

    /// What happens to the list.
    public enum Event: Equatable, Sendable {
        /// Select the card at a position, among `count` cards.
        case select(Int, count: Int)
        /// Open the form for a new stand-up with these ids.
        case add(Standup.ID, attendee: Attendee.ID)
        /// An event of the form.
        case form(StandupForm.Event)
        /// Add the stand-up of the form (validated) and close it.
        case confirmAdd
        /// Close the form; nothing is added.
        case dismissAdd
    }

    /// The stand-up to save, when an event adds one.
    public typealias Output = Standup?

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> Standup? {
        switch event {
        case .select(let index, let count):
            state.selection = min(max(index, 0), max(count - 1, 0))
        case .add(let id, let attendee):
            guard state.adding == nil else { return nil }
            state.adding = StandupForm.State(standup: Standup(id: id), blankAttendee: attendee)
        case .form(let event):
            guard var form = state.adding else { return nil }
            StandupForm.update(&form, event: event)
            state.adding = form
        case .confirmAdd:
            guard let form = state.adding else { return nil }
            state.adding = nil
            return form.standup.validated()
        case .dismissAdd:
            state.adding = nil
        }
        return nil
    }
}
