// A past meeting in SwiftUI: when it was held and its transcript.

#if canImport(SwiftUI)
import Models
import SwiftUI

/// A past meeting of a stand-up.
public struct PastMeetingView: View {
    /// The meeting shown (nil once deleted: the app closes the screen).
    public let meeting: Meeting?
    /// Its stand-up.
    public let standup: Standup?

    /// A view of `meeting`, of `standup`.
    public init(_ meeting: Meeting?, of standup: Standup?) {
        self.meeting = meeting
        self.standup = standup
    }

    /// The date and time, and the transcript.
    public var body: some View {
        List {
            if let meeting {
                Section("Held on") {
                    Text(meeting.date, style: .date)
                    Text(meeting.date, style: .time)
                }
                Section("Transcript") {
                    if meeting.transcript.isEmpty {
                        Text("No transcript: the meeting was not recorded.").foregroundStyle(.secondary)
                    } else {
                        Text(meeting.transcript)
                    }
                }
            }
        }
        .navigationTitle(standup?.displayTitle ?? "Past meeting")
    }
}
#endif
