// The store on real SQLite files in a temporary directory: every change
// round-trips and survives a restart, a batch is all or none, a damaged
// file is refused untouched and kept aside when starting over, and the
// store tells its followers of every change.

import Foundation
import GRDB
import LiveProviders
import Models
import Oak
import StandupsProvider
import Testing

@testable import StandupsStore

/// A directory of its own, removed at the end.
final class ScratchDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("oak-standups-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    var data: URL { url.appendingPathComponent("data") }
}

@Suite("The stand-ups store", .timeLimit(.minutes(1)))
struct StandupsStoreTests {
    let meeting = Meeting(id: UUID(number: 0x50), date: Date(timeIntervalSince1970: 1_800_000_000), transcript: "done")

    @Test func everyChangeRoundTripsAndSurvivesARestart() throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.data)
        #expect(try store.load() == [])
        try store.save([.add(.mock), .add(.engineeringMock)])
        var edited = Standup.engineeringMock
        edited.title = "Platform"
        edited.theme = .navy
        edited.attendees.remove(at: 0)
        try store.save([
            .update(edited), .addMeeting(meeting, to: Standup.mock.id),
            .deleteMeeting(Standup.mock.meetings[0].id, from: Standup.mock.id),
        ])
        let restarted = try StandupsStore(directory: scratch.data).load()
        var expected = Standup.mock
        expected.meetings = [meeting]
        #expect(restarted == [expected, edited])
        try StandupsStore(directory: scratch.data).save([.delete(Standup.mock.id)])
        #expect(try StandupsStore(directory: scratch.data).load() == [edited])
    }

    @Test func meetingsComeNewestFirstAndAddingTwiceKeepsTheFirst() throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.data)
        var standup = Standup.productMock
        standup.meetings = []
        let older = Meeting(id: UUID(number: 1), date: Date(timeIntervalSince1970: 100), transcript: "older")
        let newer = Meeting(id: UUID(number: 2), date: Date(timeIntervalSince1970: 200), transcript: "newer")
        try store.save([.add(standup), .addMeeting(newer, to: standup.id), .addMeeting(older, to: standup.id)])
        var renamed = standup
        renamed.title = "Renamed"
        try store.save([.add(renamed), .addMeeting(newer, to: standup.id)])
        let loaded = try store.load()
        #expect(loaded.map(\.title) == ["Product"])
        #expect(loaded.first?.meetings.elements == [newer, older])
        // A meeting of a stand-up that is not there is not written.
        try store.save([.addMeeting(meeting, to: UUID(number: 0xBAD))])
        #expect(try store.load().flatMap(\.meetings).count == 2)
    }

    @Test func aBatchIsAllOrNone() throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.data)
        try store.save([.add(.mock)])
        // The second change breaks a rule of the schema: nothing is written.
        var broken = Standup.engineeringMock
        broken.durationSeconds = 60
        let pool = try DatabasePool(path: store.path)
        try pool.write { db in
            try db.execute(
                sql:
                    "CREATE TRIGGER refuse BEFORE INSERT ON standup WHEN NEW.title = 'Refused' BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        }
        try pool.close()
        var refused = Standup.productMock
        refused.title = "Refused"
        #expect(throws: StandupsStoreError.self) {
            try store.save([.add(broken), .add(refused)])
        }
        #expect(try store.load().map(\.id) == [Standup.mock.id])
    }

    /// A stand-ups file in `scratch`'s data directory that is not a
    /// database: its path and its bytes.
    static func damagedFile(in scratch: ScratchDirectory) throws -> (path: String, bytes: Data) {
        try FileManager.default.createDirectory(at: scratch.data, withIntermediateDirectories: true)
        let path = scratch.data.appendingPathComponent(StandupsStore.fileName).path
        let garbage = Data("these are not the stand-ups you are looking for".utf8)
        _ = FileManager.default.createFile(atPath: path, contents: garbage)
        return (path, garbage)
    }

    @Test func aDamagedFileIsRefusedUntouchedAndKeptAsideWhenStartingOver() throws {
        let scratch = try ScratchDirectory()
        let (path, garbage) = try Self.damagedFile(in: scratch)
        let store = StandupsStore(directory: scratch.data)
        do {
            _ = try store.load()
            Issue.record("A damaged file was loaded.")
        } catch {
            guard case .damaged(let reported, _) = error else {
                Issue.record("Expected .damaged, got \(error)")
                return
            }
            #expect(reported == path)
            #expect(!error.summary.contains("/"))
        }
        #expect(FileManager.default.contents(atPath: path) == garbage)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let aside = try store.startOver(with: Standup.samples)
        #expect(aside.map { FileManager.default.contents(atPath: $0) } == garbage)
        #expect(try StandupsStore(directory: scratch.data).load() == Standup.samples)
    }

    /// Starting over keeps the damaged file aside in its directory: where
    /// that directory cannot be written, no screen offers it (the failure
    /// is not "damaged" for the provider), and the message says what to
    /// change.
    @Test func aDamagedFileInAReadOnlyDirectoryOffersNoStartOver() throws {
        let scratch = try ScratchDirectory()
        let (path, garbage) = try Self.damagedFile(in: scratch)
        let store = StandupsStore(directory: scratch.data, canWrite: { _ in false })
        #expect {
            _ = try store.load()
        } throws: { error in
            guard let error = error as? StandupsStoreError, case .damagedInReadOnlyDirectory(path, _) = error else {
                return false
            }
            let failure = StoreFailure(error)
            return !failure.isDamaged && failure.detail.contains("chmod u+w") && !failure.summary.contains("/")
        }
        #expect(throws: StandupsStoreError.self) { _ = try store.startOver(with: Standup.samples) }
        #expect(FileManager.default.contents(atPath: path) == garbage)
        // Once the directory can be written, starting over is offered.
        let writable = StandupsStore(directory: scratch.data, canWrite: { _ in true })
        #expect {
            _ = try writable.load()
        } throws: { error in
            guard let error = error as? StandupsStoreError, case .damaged(path, _) = error else { return false }
            return StoreFailure(error).isDamaged
        }
    }

    @Test func aMissingParentIsReported() throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.url.appendingPathComponent("no/such/dir"))
        #expect {
            _ = try store.load()
        } throws: { error in
            guard case .cannotCreateDirectory = error as? StandupsStoreError else { return false }
            return true
        }
    }

    @Test func followersShareOneObservationAndALateOneStartsWithTheListNow() async throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.data)
        _ = try store.load()
        var first: AsyncStream<[Standup]>.Iterator? = store.updates().makeAsyncIterator()
        #expect(await first?.next() == [])
        try store.save([.add(.mock)])
        #expect(await first?.next()?.map(\.id) == [Standup.mock.id])

        // A second follower starts with the list now, and both hear the
        // next change.
        var second: AsyncStream<[Standup]>.Iterator? = store.updates().makeAsyncIterator()
        #expect(await second?.next()?.map(\.id) == [Standup.mock.id])
        try store.save([.add(.productMock)])
        #expect(await first?.next()?.count == 2)
        #expect(await second?.next()?.count == 2)

        // Once both have gone, a new follower starts the observation anew.
        first = nil
        second = nil
        var third = store.updates().makeAsyncIterator()
        #expect(await third.next()?.count == 2)
        try store.save([.delete(Standup.mock.id)])
        #expect(await third.next()?.map(\.id) == [Standup.productMock.id])
    }

    @Test func aLoadEqualToTheFollowersListIsThatVeryList() async throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.data)
        try store.save([.add(.mock)])
        var updates = store.updates().makeAsyncIterator()
        let followed = try #require(await updates.next())
        let loaded = try store.load()
        #expect(loaded == followed)
        #expect(
            loaded.withUnsafeBufferPointer { $0.baseAddress } == followed.withUnsafeBufferPointer { $0.baseAddress },
            "one copy, shared")
        // Changed where the followers have not seen it yet: what the file holds.
        try StandupsStore(directory: scratch.data).save([.add(.productMock)])
        #expect(try store.load().map(\.id) == [Standup.mock.id, Standup.productMock.id])
    }

    @Test func followersHearOfEveryCommittedChange() async throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.data)
        _ = try store.load()
        var updates = store.updates().makeAsyncIterator()
        #expect(await updates.next() == [])
        try StandupsStore(directory: scratch.data).save([.add(.mock)])  // another store: not seen until ours writes
        try store.save([.add(.productMock)])
        var seen = await updates.next()
        if seen?.count == 1 { seen = await updates.next() }
        #expect(seen?.map(\.id) == [Standup.mock.id, Standup.productMock.id])
    }
}

@Suite("The provider over the SQLite store", .timeLimit(.minutes(1)))
struct LiveProviderTests {
    @Test func aDamagedFileIsReportedToTheProviderAndStartingOverKeepsIt() async throws {
        let scratch = try ScratchDirectory()
        try FileManager.default.createDirectory(at: scratch.data, withIntermediateDirectories: true)
        let path = scratch.data.appendingPathComponent(StandupsStore.fileName).path
        _ = FileManager.default.createFile(atPath: path, contents: Data("garbage".utf8))
        let dependencies = StandupsProvider.Dependencies.live(StandupsStore(directory: scratch.data))
        do {
            _ = try await dependencies.load()
            Issue.record("A damaged file was loaded.")
        } catch {
            #expect(error.isDamaged)
            #expect(error.summary == "The stand-ups file is damaged; it was left untouched.")
            #expect(error.detail.contains(path))
        }
        try await dependencies.startOver([.mock])
        #expect(try await dependencies.load() == [.mock])
        let kept = try FileManager.default.contentsOfDirectory(atPath: scratch.data.path).filter {
            $0.hasPrefix(StandupsStore.fileName + ".damaged-")
        }
        #expect(kept.count == 1)
    }

    @Test func theLiveDependenciesLoadSaveAndFollowTheStore() async throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.data)
        try store.save([.add(.mock)])
        let dependencies = StandupsProvider.Dependencies.live(store)
        #expect(try await dependencies.load() == [.mock])
        // The feed tells changes: its first list, the one just loaded, is
        // not told again.
        var updates = dependencies.updates().makeAsyncIterator()
        _ = try await dependencies.save([.add(.productMock)])
        #expect(await updates.next() == [.mock, .productMock])
        #expect(try StandupsStore(directory: scratch.data).load() == [.mock, .productMock])
    }
}
