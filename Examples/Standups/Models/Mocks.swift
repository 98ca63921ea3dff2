// Stand-ups for tests, previews and the sample data a user may start with.

import Foundation
import IdentifiedCollections

extension Standup {
    /// "Design": orange, one minute, six attendees, one past meeting (as
    /// SyncUps' mock).
    public static let mock = Standup(
        id: UUID(uuidString: "00000000-0000-0000-0000-0000000000D0") ?? UUID(),
        title: "Design", durationSeconds: 60, theme: .orange,
        attendees: makeAttendees(["Blob", "Blob Jr", "Blob Sr", "Blob Esq", "Blob III", "Blob I"], tag: 0xD1),
        meetings: [
            Meeting(
                id: UUID(uuidString: "00000000-0000-0000-0000-0000000000DF") ?? UUID(),
                date: Date(timeIntervalSince1970: 1_700_000_000),
                transcript: "We talked about the new icons and agreed to try a darker orange.")
        ])

    /// "Engineering": periwinkle, ten minutes, four attendees.
    public static let engineeringMock = Standup(
        id: UUID(uuidString: "00000000-0000-0000-0000-0000000000E0") ?? UUID(),
        title: "Engineering", durationSeconds: 10 * 60, theme: .periwinkle,
        attendees: makeAttendees(["Ada", "Grace", "Linus", "Barbara"], tag: 0xE1))

    /// "Product": poppy, fifteen minutes, three attendees.
    public static let productMock = Standup(
        id: UUID(uuidString: "00000000-0000-0000-0000-0000000000F0") ?? UUID(),
        title: "Product", durationSeconds: 15 * 60, theme: .poppy,
        attendees: makeAttendees(["Margaret", "Tim", "Katherine"], tag: 0xF1))

    /// The sample stand-ups a user may start with.
    public static let samples: [Standup] = [.mock, .engineeringMock, .productMock]

    private static func makeAttendees(_ names: [String], tag: Int) -> IdentifiedArrayOf<Attendee> {
        IdentifiedArrayOf(
            uniqueElements: names.enumerated().map { index, name in
                Attendee(id: UUID(number: tag * 0x100 + index), name: name)
            })
    }
}

extension UUID {
    /// A UUID made from a number, `00000000-0000-0000-0000-00000000002A`
    /// for 42: readable ids for tests and samples.
    public init(number: Int) {
        let hex = String(UInt64(truncatingIfNeeded: number), radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(12 - hex.count, 0)) + hex
        self = UUID(uuidString: "00000000-0000-0000-0000-" + padded.suffix(12)) ?? UUID()
    }
}
