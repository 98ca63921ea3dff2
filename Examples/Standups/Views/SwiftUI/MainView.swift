// The app in SwiftUI: a navigation stack over the list of stand-ups, driven
// by the app's path (a stand-up, its meeting, a past meeting), and a banner
// when a change could not be saved. As in the terminal front end, every
// control sends an intent of the state it was drawn from: the root's own
// through the host, those of the screen on top through its run's handle.

#if canImport(SwiftUI)
import StandupsMain
import Foundation
import Oak
import StandupsIntents
import SwiftUI

/// Shows the app hosted by an `ObservableTransducer<Main>`: the list
/// of stand-ups under a navigation stack of the app's screens. It starts
/// the app (loads the stand-ups) when it appears.
///
/// Whoever owns the app's lifetime owns the host, so that the run outlives
/// the view's updates:
///
/// ```swift
/// @main
/// struct StandupsApp: App {
///     @State private var app = ObservableTransducer<Main>(initialState: Main.State(), env: .live)
///
///     var body: some Scene {
///         WindowGroup { MainView(app) }
///     }
/// }
/// ```
public struct MainView: View {
    /// The host of the app's run.
    let host: ObservableTransducer<Main>

    /// A view of the run that `host` hosts.
    public init(_ host: ObservableTransducer<Main>) {
        self.host = host
    }

    /// The stack of screens, and the failed write with Try again; `start`
    /// when the view appears (the app ignores it once started).
    public var body: some View {
        let state = host.state
        let app = StandupsIntents(for: state, proxy: host.proxy) { [host] in host.state }.app
        VStack(spacing: 0) {
            NavigationStack(path: path(state, back: app(.back))) {
                StandupsListView(state, intents: app)
                    .navigationDestination(for: UUID.self) { id in
                        StandupsScreenView(host: host, id: id)
                    }
            }
            if let failure = state.data.failure, state.data.phase == .loaded {
                HStack {
                    Text("Not saved yet: \(failure.summary) Trying again by itself.").foregroundStyle(.red)
                    Spacer()
                    Button("Try again") { app(.retrySave)() }
                }
                .padding()
            } else if state.isSaving {
                // Shown at once, durable a moment later: not passed off as
                // kept until then.
                Text("Saving…").foregroundStyle(.secondary).padding(4)
            }
        }
        .task { await host.proxy.send(.start) }
    }

    /// The stack as the ids of its screens; SwiftUI's Back (the button, the
    /// swipe, the back menu) sends `back` once for each screen it removes.
    private func path(_ state: Main.State, back: Intent<Main.Event>) -> Binding<[UUID]> {
        let ids = state.path.map(\.id)
        return Binding(
            get: { @MainActor in ids },
            set: { @MainActor newValue in
                for _ in newValue.count..<max(ids.count, newValue.count) { back() }
            })
    }
}

/// One screen of the stack, found by its id in the host's latest state, with
/// the intents of that state when it is on top.
struct StandupsScreenView: View {
    let host: ObservableTransducer<Main>
    let id: UUID

    var body: some View {
        let state = host.state
        let intents = StandupsIntents(for: state, proxy: host.proxy) { [host] in host.state }
        let isTop = state.top?.id == id
        switch state.path.first(where: { $0.id == id }) {
        case .detail(let child)?:
            StandupDetailView(
                child.state, intents: isTop ? intents.detail : nil,
                conflicts: state.data.conflicts[child.state.standup.id] ?? [], app: isTop ? intents.app : nil,
                isMeetingRunning: state.meetingsRunning.contains(child.state.standup.id))
        case .meeting(let room)?:
            MeetingView(room.state, intents: isTop ? intents.meeting : nil)
        case .pastMeeting(let meetingID, let standupID)?:
            let standup = state.data.standups[id: standupID]
            PastMeetingView(standup?.meetings[id: meetingID], of: standup)
        case nil:
            EmptyView()
        }
    }
}
#endif
