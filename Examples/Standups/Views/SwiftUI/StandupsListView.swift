// The list of stand-ups in SwiftUI: a card in its theme's colours for each
// (opening its screen), the sheet that adds one, and while the stand-ups
// load or after loading failed, what the terminal shows (start over, empty
// or with the samples).

#if canImport(SwiftUI)
import StandupsMain
import Foundation
import Models
import Oak
import StandupsIntents
import SwiftUI

/// The list of stand-ups, the bottom of the app's stack.
public struct StandupsListView: View {
    /// The app's state drawn.
    public let state: Main.State
    /// The root's intents for that state.
    public let intents: Intents<Main, Main.Scope>

    /// A view of the list in `state`, acting through `intents`.
    public init(_ state: Main.State, intents: Intents<Main, Main.Scope>) {
        self.state = state
        self.intents = intents
    }

    /// The cards, or why there are none; New stand-up in the toolbar and
    /// its form in a sheet.
    public var body: some View {
        content
            .navigationTitle("Daily stand-ups")
            .toolbar {
                ToolbarItem(placement: .primaryAction) {
                    Button {
                        intents(.list(.add(UUID(), attendee: UUID())))()
                    } label: {
                        Label("New stand-up", systemImage: "plus")
                    }
                }
            }
            .sheet(isPresented: presented(state.list.adding != nil, dismiss: intents(.list(.dismissAdd)))) {
                addSheet
            }
    }

    @ViewBuilder private var content: some View {
        switch state.data.phase {
        case .idle, .loading:
            Text("Loading your stand-ups…").foregroundStyle(.secondary)
        case .failed(let failure):
            VStack(alignment: .leading, spacing: 12) {
                Text(failure.summary).font(.headline).foregroundStyle(.red)
                Text(failure.detail).foregroundStyle(.secondary)
                if failure.isDamaged {
                    Text(
                        "The damaged file is kept aside, untouched. Start over with an empty list or with the samples.")
                    Button("Start empty") { intents(.startOver(withSamples: false))() }
                    Button("Start with the samples") { intents(.startOver(withSamples: true))() }
                } else {
                    Text("Your stand-ups are kept. Trying again by itself.")
                    Button("Try again") { intents(.retryLoad)() }
                }
            }
            .padding()
        case .loaded:
            List {
                if state.data.standups.isEmpty {
                    Text("No stand-ups yet. Add one with +.").foregroundStyle(.secondary)
                }
                ForEach(state.data.standups) { standup in
                    Button {
                        intents(.open(standup.id))()
                    } label: {
                        StandupCardView(standup)
                    }
                    .listRowBackground(Color(standup.theme.mainColor))
                }
            }
        }
    }

    /// The form adding a stand-up, with Dismiss and Add.
    @ViewBuilder private var addSheet: some View {
        if let form = state.list.adding {
            NavigationStack {
                StandupFormView(form) { intents(.list(.form($0))) }
                    .navigationTitle("New stand-up")
                    .toolbar {
                        ToolbarItem(placement: .cancellationAction) {
                            Button("Dismiss") { intents(.list(.dismissAdd))() }
                        }
                        ToolbarItem(placement: .confirmationAction) {
                            Button("Add") { intents(.list(.confirmAdd))() }
                        }
                    }
            }
        }
    }
}

/// A stand-up's card: its title, attendees and length, in its theme's
/// colours (the list row's background is the theme's main colour).
public struct StandupCardView: View {
    /// The stand-up shown.
    public let standup: Standup

    /// The card of `standup`.
    public init(_ standup: Standup) {
        self.standup = standup
    }

    /// The title over the number of attendees and the length.
    public var body: some View {
        VStack(alignment: .leading) {
            Text(standup.displayTitle).font(.headline)
            Spacer()
            HStack {
                Label("\(standup.attendees.count)", systemImage: "person.3")
                Spacer()
                Label("\(standup.minutes) min", systemImage: "clock")
            }
            .font(.caption)
        }
        .padding()
        .foregroundStyle(Color(standup.theme.accentColor))
    }
}
#endif
