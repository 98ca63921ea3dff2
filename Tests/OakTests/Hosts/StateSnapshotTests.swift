// Saved state: restored at the next start, after an explicit event; a
// damaged or newer snapshot set aside, never deleted, and the run started
// fresh.

import Foundation
import Oak
import Testing

/// Favourite numbers; `.didRestore` records that a restore happened.
enum Favourites: EffectTransducer {
    struct State: NonTerminal, Codable, Equatable, Sendable {
        var numbers: [Int] = []
        var restores = 0
    }

    enum Event: Sendable {
        case add(Int)
        case didRestore
    }

    typealias Output = State

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .add(let number): state.numbers.append(number)
        case .didRestore: state.restores += 1
        }
        return (nil, state)
    }
}

@Suite("State snapshots", .timeLimit(.minutes(1)))
struct StateSnapshotTests {
    func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oak-snapshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `Favourites` with `snapshots` for `events`, then ends the run;
    /// returns the outputs.
    func run(
        _ snapshots: StateSnapshots<Favourites.State>, _ events: [Favourites.Event]
    ) async throws -> [Favourites.State] {
        let outputs = Recorder<Favourites.State>()
        let proxy = Favourites.Proxy(bufferSize: 16)
        for event in events { try proxy.send(event) }
        proxy.finish()
        _ = try? await Favourites.run(
            restoringFrom: snapshots, initialState: Favourites.State(), restored: { _ in .didRestore },
            proxy: proxy, env: (), output: Callback { outputs.append($0) })
        return outputs.values
    }

    @Test func aSavedStateIsRestoredAndTheTransducerToldFirst() async throws {
        let folder = try directory()
        let snapshots = StateSnapshots<Favourites.State>(
            url: folder.appendingPathComponent("favourites.json"), version: 3)
        _ = try await run(snapshots, [.add(1), .add(2)])
        #expect(snapshots.restore() == Favourites.State(numbers: [1, 2]))

        let outputs = try await run(snapshots, [.add(3)])
        #expect(outputs.first == Favourites.State(numbers: [1, 2], restores: 1))
        #expect(outputs.last == Favourites.State(numbers: [1, 2, 3], restores: 1))
    }

    @Test("5 an inspector is told a run's state was restored, and from where; a fresh start is not marked")
    func anInspectorIsToldTheStateWasRestored() async throws {
        let snapshots = StateSnapshots<Favourites.State>(
            url: try directory().appendingPathComponent("favourites.json"))
        let starts = StartRecorder()
        try await TransducerInspection.$inspector.withValue(starts) {
            _ = try await run(snapshots, [.add(1)])
            _ = try await run(snapshots, [.add(2)])
        }
        let recorded = starts.starts.withLock { $0 }
        #expect(recorded.map(\.restoredFrom) == [nil, "favourites.json"])
        #expect(recorded.last?.initialState.contains("numbers: [1]") == true)
    }

    @Test func aDamagedSnapshotIsSetAsideAndTheRunStartsFresh() async throws {
        let folder = try directory()
        let url = folder.appendingPathComponent("favourites.json")
        try Data("{not json".utf8).write(to: url)
        let snapshots = StateSnapshots<Favourites.State>(url: url)
        let outputs = try await run(snapshots, [.add(5)])
        #expect(outputs == [Favourites.State(numbers: [5])])
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("favourites.json.unreadable-") }
        #expect(kept.count == 1)
        #expect(try String(contentsOf: folder.appendingPathComponent(kept[0]), encoding: .utf8) == "{not json")
    }

    @Test func twoDamagedSnapshotsInTheSameSecondAreBothKept() async throws {
        let folder = try directory()
        let url = folder.appendingPathComponent("favourites.json")
        let snapshots = StateSnapshots<Favourites.State>(url: url)
        try Data("{first".utf8).write(to: url)
        #expect(snapshots.restore() == nil)
        try Data("{second".utf8).write(to: url)
        #expect(snapshots.restore() == nil)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("favourites.json.unreadable-") }
        let contents = try Set(
            kept.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) })
        #expect(contents == ["{first", "{second"])
    }

    @Test func aSnapshotFromANewerVersionIsSetAside() async throws {
        let folder = try directory()
        let url = folder.appendingPathComponent("favourites.json")
        try Data(#"{"state":{"numbers":[9],"restores":0},"version":7}"#.utf8).write(to: url)
        let snapshots = StateSnapshots<Favourites.State>(url: url, version: 2)
        let outputs = try await run(snapshots, [.add(5)])
        #expect(outputs == [Favourites.State(numbers: [5])])
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(kept.contains { $0.hasPrefix("favourites.json.from-version-7-") })
        #expect(snapshots.restore() == Favourites.State(numbers: [5]))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    @Test func aHostRestoresItsStateTellsTheTransducerFirstAndSavesEveryChange() async throws {
        let snapshots = StateSnapshots<Favourites.State>(url: try directory().appendingPathComponent("f.json"))
        try snapshots.save(Favourites.State(numbers: [1]))
        let completions = CompletionLog<Favourites.State>()
        let proxy = Favourites.Proxy(bufferSize: 8)
        let host = ObservableTransducer<Favourites>(
            restoringFrom: snapshots, initialState: Favourites.State(), restored: { _ in .didRestore },
            proxy: proxy, env: (), completion: .init(completions.callback))
        #expect(host.state == Favourites.State(numbers: [1]))

        // Sent before the run started: processed after `.didRestore`.
        try host.send(.add(2))
        proxy.finish()
        _ = await completions.first()
        #expect(host.state == Favourites.State(numbers: [1, 2], restores: 1))
        #expect(snapshots.restore() == Favourites.State(numbers: [1, 2], restores: 1))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    @Test func aHostWithoutASnapshotStartsFromItsInitialStateWithoutTheRestoreEvent() async throws {
        let snapshots = StateSnapshots<Favourites.State>(url: try directory().appendingPathComponent("f.json"))
        let completions = CompletionLog<Favourites.State>()
        let proxy = Favourites.Proxy(bufferSize: 8)
        let host = ObservableTransducer<Favourites>(
            restoringFrom: snapshots, initialState: Favourites.State(numbers: [7]), restored: { _ in .didRestore },
            proxy: proxy, env: (), completion: .init(completions.callback))
        try host.send(.add(8))
        proxy.finish()
        _ = await completions.first()
        #expect(host.state == Favourites.State(numbers: [7, 8]))
        #expect(snapshots.restore() == Favourites.State(numbers: [7, 8]))
    }
}
