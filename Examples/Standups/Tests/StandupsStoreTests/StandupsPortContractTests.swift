// The stand-ups provider's store port (StandupsProvider.Dependencies) and
// its rules, checked on every adapter: in memory (the mock), the SQLite
// file, and PostgreSQL (against the server OAK_TEST_POSTGRES names, a
// database of its own per test; skipped without one, saying what to set;
// on CI they must run). Then what only PostgreSQL is asked for: a batch
// written again after its connection was killed, and a database that is
// gone as a typed failure within the deadline.

import Foundation
import IdentifiedCollections
import LiveProviders
import Models
import PostgresNIO
import PostgresStandups
import PostgresSupport
import PostgresTesting
import StandupsProvider
import StandupsStore
import Testing

/// A port under test, and a way to change what it stores as someone else
/// (another session's store, another process) would.
struct PortUnderTest: Sendable {
    var port: StandupsProvider.Dependencies
    var elsewhere: @Sendable ([StandupChange]) async throws -> Void
}

/// The rules, each a check on a new, empty store.
enum StandupsRule: String, CaseIterable, CustomTestStringConvertible {
    case startsEmpty
    case aBatchRoundTripsInOrder
    case addingAStandupThatIsThereKeepsTheFirst
    case anUpdateReplacesTheStandupButKeepsItsMeetings
    case deletingAStandupDeletesItsMeetings
    case meetingsComeNewestFirstAndAddingOneTwiceKeepsOne
    case startingOverReplacesEverything
    case changesMadeElsewhereArrive
    case anEditIsMergedWithWhatChangedElsewhereAndSaysWhatBothChanged

    var testDescription: String { rawValue }

    static let meeting = Meeting(
        id: UUID(uuidString: "00000000-0000-0000-0000-000000000050") ?? UUID(),
        date: Date(timeIntervalSince1970: 1_800_000_000.25), transcript: "Ünïcode 🐧 'quoted'; DROP TABLE meeting; --")
    static let later = Meeting(
        id: UUID(uuidString: "00000000-0000-0000-0000-000000000051") ?? UUID(),
        date: Date(timeIntervalSince1970: 1_800_000_100), transcript: "later")

    func check(_ subject: PortUnderTest) async throws {
        let store = subject.port
        var a = Standup.mock  // without its past meeting
        a.meetings = []
        let b = Standup.engineeringMock
        switch self {
        case .startsEmpty:
            #expect(try await store.load() == [])
        case .aBatchRoundTripsInOrder:
            _ = try await store.save([.add(a), .add(b), .addMeeting(Self.meeting, to: b.id)])
            var expected = b
            expected.meetings = [Self.meeting]
            #expect(try await store.load() == [a, expected])
        case .addingAStandupThatIsThereKeepsTheFirst:
            var again = a
            again.title = "Not this one"
            _ = try await store.save([.add(a)])
            _ = try await store.save([.add(again), .add(b), .add(again)])
            #expect(try await store.load() == [a, b])
        case .anUpdateReplacesTheStandupButKeepsItsMeetings:
            _ = try await store.save([.add(a), .addMeeting(Self.meeting, to: a.id)])
            var edited = a
            edited.title = "Platform"
            edited.theme = .navy
            edited.durationSeconds = 120
            edited.attendees = IdentifiedArrayOf(uniqueElements: a.attendees.reversed().dropFirst())
            edited.meetings = []
            _ = try await store.save([.update(edited), .update(Standup(id: UUID()))])
            edited.meetings = [Self.meeting]
            #expect(try await store.load() == [edited])
        case .deletingAStandupDeletesItsMeetings:
            _ = try await store.save([.add(a), .addMeeting(Self.meeting, to: a.id), .delete(a.id), .delete(a.id)])
            #expect(try await store.load() == [])
            _ = try await store.save([.add(a)])
            #expect(try await store.load() == [a])
        case .meetingsComeNewestFirstAndAddingOneTwiceKeepsOne:
            _ = try await store.save([
                .add(a), .addMeeting(Self.meeting, to: a.id), .addMeeting(Self.later, to: a.id),
                .addMeeting(Self.meeting, to: a.id), .addMeeting(Self.later, to: UUID()),
            ])
            #expect(try await store.load().first?.meetings.elements == [Self.later, Self.meeting])
            _ = try await store.save([.deleteMeeting(Self.later.id, from: a.id)])
            #expect(try await store.load().first?.meetings.elements == [Self.meeting])
        case .startingOverReplacesEverything:
            _ = try await store.save([.add(a)])
            try await store.startOver([b])
            #expect(try await store.load() == [b])
        case .anEditIsMergedWithWhatChangedElsewhereAndSaysWhatBothChanged:
            // a: Blob, Blob Jr, Blob Sr… (mock). Elsewhere: the title, the
            // first attendee renamed, one added. Here, from a: the title
            // too, the theme, the second attendee renamed, the third removed.
            _ = try await store.save([.add(a), .addMeeting(Self.meeting, to: a.id)])
            var theirs = a
            theirs.title = "Theirs"
            theirs.attendees[0].name = "Ann"
            theirs.attendees.append(Attendee(id: UUID(number: 0xA1), name: "Cy"))
            try await subject.elsewhere([.update(theirs)])
            var mine = a
            mine.title = "Mine"
            mine.theme = .navy
            mine.attendees[1].name = "Bo"
            mine.attendees.remove(at: 2)
            let conflicts = try await store.save([.edit(mine, from: a)])
            #expect(conflicts == [EditConflict(standup: a.id, conflicts: [.title(theirs: "Theirs")])])
            var expected = a
            expected.title = "Mine"
            expected.theme = .navy
            expected.attendees = theirs.attendees
            expected.attendees[1].name = "Bo"
            expected.attendees.remove(id: a.attendees[2].id)
            expected.meetings = [Self.meeting]
            #expect(try await store.load() == [expected])
            // An edit of a stand-up deleted meanwhile adds it back, and
            // says so.
            try await subject.elsewhere([.delete(a.id)])
            let again = try await store.save([.edit(mine, from: a)])
            #expect(again == [EditConflict(standup: a.id, conflicts: [.deletedElsewhere])])
            var readded = mine
            readded.meetings = []
            #expect(try await store.load() == [readded])
        case .changesMadeElsewhereArrive:
            _ = try await store.save([.add(a)])
            var updates = store.updates().makeAsyncIterator()
            try await subject.elsewhere([.add(b)])
            var seen: [Standup]? = nil
            while seen != [a, b], let next = await updates.next() { seen = next }
            #expect(seen == [a, b])
        }
    }
}

/// The rules of the meetings' checkpoints port (``MeetingCheckpoints``),
/// on a new, empty store.
func checkCheckpoints(_ port: MeetingCheckpoints) async throws {
    let daily = UUID()
    let retro = UUID()
    let (first, second) = (UUID(), UUID())
    let bytes = Data([0, 1, 2, 0xFF, 0x7B, 0x22]) + Data("Ünïcode 🐧".utf8)
    #expect(try await port.all().isEmpty)
    try await port.save(.init(standup: daily, room: first, checkpoint: bytes))
    #expect(try await port.all() == [.init(standup: daily, room: first, checkpoint: bytes)])
    // One per stand-up: a later checkpoint (another room: a later meeting)
    // replaces it; another stand-up's is kept beside it.
    try await port.save(.init(standup: daily, room: second, checkpoint: Data("later".utf8)))
    try await port.save(.init(standup: retro, room: first, checkpoint: bytes))
    let kept = try await port.all().sorted { $0.standup.uuidString < $1.standup.uuidString }
    let expected: [MeetingCheckpoints.Kept] = [
        .init(standup: daily, room: second, checkpoint: Data("later".utf8)),
        .init(standup: retro, room: first, checkpoint: bytes),
    ].sorted { $0.standup.uuidString < $1.standup.uuidString }
    #expect(kept == expected)
    // Removing the first room's leaves the later meeting's.
    try await port.remove(daily, first)
    #expect(try await port.all().count == 2)
    try await port.remove(daily, second)
    #expect(try await port.all() == [.init(standup: retro, room: first, checkpoint: bytes)])
}

@Suite("The stand-ups' store port, on every adapter", .timeLimit(.minutes(1)))
struct StandupsPortContractTests {
    @Test func meetingCheckpointsInMemoryAndInTheSQLiteFile() async throws {
        try await checkCheckpoints(.mock())
        let scratch = try ScratchDirectory()
        try await checkCheckpoints(.live(StandupsStore(directory: scratch.data)))
    }

    @Test(arguments: StandupsRule.allCases)
    func inMemory(_ rule: StandupsRule) async throws {
        let store = MockStandupsStore()
        try await rule.check(
            PortUnderTest(
                port: .mock(store),
                elsewhere: { changes in for change in changes { store.changeElsewhere(change) } }))
    }

    @Test(arguments: StandupsRule.allCases)
    func sqlite(_ rule: StandupsRule) async throws {
        let scratch = try ScratchDirectory()
        let other = StandupsStore(directory: scratch.data)
        try await rule.check(
            PortUnderTest(
                port: .live(StandupsStore(directory: scratch.data)),
                elsewhere: { changes in try other.save(changes) }))
    }
}

@Suite(
    "The stand-ups in PostgreSQL", .serialized, .timeLimit(.minutes(1)),
    .postgres)
struct PostgresStandupsTests {
    @Test("Each rule holds with two server processes on one database", arguments: StandupsRule.allCases)
    func postgres(_ rule: StandupsRule) async throws {
        // Two pools: what two server processes hold.
        try await PostgresTestServer.withAdapter(PostgresStandups.self, processes: 2) { _, opened in
            let (store, other) = (opened[0].store, opened[1].store)
            try await rule.check(PortUnderTest(port: .postgres(store), elsewhere: { try await other.save($0) }))
        }
    }

    @Test func meetingCheckpoints() async throws {
        try await PostgresTestServer.withAdapter(PostgresStandups.self) { _, opened in
            try await checkCheckpoints(.postgres(opened[0].store))
        }
    }

    @Test func aBatchIsWrittenAgainAfterItsConnectionsWereKilled() async throws {
        try await PostgresTestServer.withAdapter(PostgresStandups.self) { location, opened in
            let store = opened[0].store
            _ = try await store.save([.add(.mock)])
            try await PostgresTestServer.killConnections(to: location)
            _ = try await store.save([.add(.engineeringMock)])
            #expect(try await store.load() == [.mock, .engineeringMock])
        }
    }

    @Test func aDatabaseThatIsGoneIsATypedFailureWithinTheDeadline() async throws {
        try await PostgresTestServer.withScratchDatabase { location in
            let database = try await PostgresAppDatabase.open(location, logger: PostgresTestServer.logger)
            let store = try await PostgresStandups.open(
                database, deadline: .seconds(1), logger: PostgresTestServer.logger)
            try await PostgresTestServer.drop(location)
            let start = ContinuousClock.now
            await #expect {
                _ = try await store.save([.add(.mock)])
            } throws: { error in
                guard let failure = error as? StoreFailure else { return false }
                return failure.summary.contains("cannot be reached") && failure.detail.contains("\(location)")
                    && failure.detail.contains("--database") && !failure.isDamaged
            }
            #expect(ContinuousClock.now - start < .seconds(3))
            await database.close()
        }
    }

    @Test func aStandupsMeetingsHaveOneHomeUntilItsProcessGoes() async throws {
        try await PostgresTestServer.withAdapter(PostgresStandups.self, processes: 2) { _, opened in
            let a = try await PostgresMeetingHomes.open(opened[0].database, address: { "http://a.test:1" })
            let b = try await PostgresMeetingHomes.open(opened[1].database, address: { "http://b.test:2" })
            let daily = UUID()
            let retro = UUID()
            // Claimed by the first to ask, at once; the other is told where.
            async let fromA = a.claim(daily)
            async let fromB = b.claim(daily)
            let homes = await [fromA, fromB]
            #expect(homes.filter { $0 == .here }.count == 1, "\(homes)")
            #expect(homes.contains(.elsewhere("http://a.test:1")) || homes.contains(.elsewhere("http://b.test:2")))
            let holder = homes[0] == .here ? a : b
            let other = homes[0] == .here ? b : a
            #expect(await holder.claim(daily) == .here)  // kept
            #expect(await other.claim(retro) == .here)  // another stand-up, another home
            // The holder goes (its connection with it): the next claim wins.
            await holder.close()
            #expect(await other.claim(daily) == .here)
            await other.close()
        }
    }

    /// Claims asked at once, before the homes have a connection, as a
    /// server's pages and its look-out for meetings to resume ask them: one
    /// connection holds every claim (a second one, opened while the first
    /// opened, once replaced it and was dropped open: postgres-nio stopped
    /// the server), and a stand-up asked for three times at once is given
    /// up by one release.
    @Test func claimsAskedAtOnceShareOneConnectionAndOneReleaseGivesEachUp() async throws {
        try await PostgresTestServer.withAdapter(PostgresStandups.self, processes: 2) { _, opened in
            let a = try await PostgresMeetingHomes.open(opened[0].database, address: { "http://a.test:1" })
            let standups = (0..<8).map { _ in UUID() }
            let here = await withTaskGroup(of: Bool.self) { group in
                for id in standups {
                    for _ in 0..<3 { group.addTask { await a.claim(id) == .here } }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(here == Array(repeating: true, count: 24))
            let held = try await advisoryLocks(opened[1].database)
            #expect(held.holders == 1 && held.locks == 8, "\(held)")
            for id in standups { await a.release(id) }
            let left = try await advisoryLocks(opened[1].database)
            #expect(left.holders == 0 && left.locks == 0, "\(left)")
            await a.close()
        }
    }

    /// A claim asked while the homes close opens no connection after them.
    @Test func aClaimAskedWhileTheHomesCloseLeavesNoConnection() async throws {
        try await PostgresTestServer.withAdapter(PostgresStandups.self, processes: 2) { _, opened in
            let a = try await PostgresMeetingHomes.open(opened[0].database, address: { "http://a.test:1" })
            let daily = UUID()
            async let claimed = a.claim(daily)
            await a.close()
            _ = await claimed
            #expect(await a.claim(UUID()) == .here)  // told "here", nothing opened
            let left = try await advisoryLocks(opened[1].database)
            #expect(left.holders == 0 && left.locks == 0, "\(left)")
        }
    }

    /// The session-level advisory locks held in `database`'s database:
    /// by how many connections, how many locks.
    private func advisoryLocks(_ database: PostgresAppDatabase) async throws -> (holders: Int, locks: Int) {
        let rows = try await database.client.query(
            """
            SELECT count(DISTINCT pid)::bigint, count(*)::bigint FROM pg_locks
            WHERE locktype = 'advisory' AND granted
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """)
        for try await (holders, locks) in rows.decode((Int, Int).self) { return (holders, locks) }
        return (0, 0)
    }

    @Test func aClaimGivenUpWhenItsMeetingEndsLetsAnotherProcessClaim() async throws {
        try await PostgresTestServer.withAdapter(PostgresStandups.self, processes: 2) { _, opened in
            let a = try await PostgresMeetingHomes.open(opened[0].database, address: { "http://a.test:1" })
            let b = try await PostgresMeetingHomes.open(opened[1].database, address: { "http://b.test:2" })
            let daily = UUID()
            #expect(await a.claim(daily) == .here)
            #expect(await b.claim(daily) == .elsewhere("http://a.test:1"))
            // The meeting ended in the first process: both processes live
            // on, and the next meeting runs where it is started.
            await a.release(daily)
            await a.release(daily)  // twice: nothing more
            #expect(await b.claim(daily) == .here)
            #expect(await a.claim(daily) == .elsewhere("http://b.test:2"))
            await a.close()
            await b.close()
        }
    }
}
