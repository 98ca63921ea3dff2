// Saving a host's state after every change and restoring it at the next start
// (`StateSnapshots`), with the storage and writer the hosts use for it.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a transducer's state is saved between launches: a JSON file with a
/// schema version, written atomically after every change and read at the
/// next start.
///
/// ```swift
/// let snapshots = StateSnapshots<Favourites.State>(url: dataDirectory.appending(path: "favourites.json"), version: 2)
/// try await Favourites.run(
///     restoringFrom: snapshots, initialState: Favourites.State(),
///     restored: { _ in .didRestore },
///     proxy: proxy, env: env, output: output)
/// ```
///
/// A file that cannot be read — damaged, or written by a newer version of
/// the app — is reported through swift-log, set aside next to the original
/// (renamed with the reason and the time; never deleted), and the run starts
/// from its initial state. Effects that were running when the state was
/// saved are not resurrected: after a restore, the transducer first gets the
/// event `restored` makes, and decides there what to start again.
public struct StateSnapshots<State: Codable>: Sendable {
    /// The file.
    public let url: URL
    /// The schema version written with the state. Raise it when `State`
    /// changes incompatibly; a file with a higher version is set aside.
    public let version: Int

    /// Snapshots kept in the file at `url`, with schema `version`.
    public init(url: URL, version: Int = 1) {
        self.url = url
        self.version = version
    }

    /// The file's contents.
    struct Envelope: Codable {
        var version: Int
        var state: State
    }

    /// Only the version, read first so that a newer file is told apart from
    /// a damaged one.
    struct VersionOnly: Codable {
        var version: Int
    }

    /// Why a saved state was not restored.
    public enum RestoreFailure: Error, Equatable, Sendable {
        /// The file is not a snapshot this version can decode.
        case unreadable(String)
        /// The file was written with a newer schema version.
        case newerVersion(found: Int, supported: Int)
    }

    /// The saved state, `nil` when there is none. A file that cannot be
    /// restored is set aside and reported; the result is then `nil` too.
    public func restore() -> State? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try read()
        } catch {
            let aside = setAside(because: error)
            logger.warning(
                "The saved state could not be restored; the run starts from its initial state.",
                metadata: [
                    "file": "\(url.path)", "reason": "\(error)", "keptAs": "\(aside?.path ?? "(not moved)")",
                ])
            return nil
        }
    }

    /// Reads and decodes the file.
    func read() throws(RestoreFailure) -> State {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable("\(error)")
        }
        let decoder = JSONDecoder()
        if let found = try? decoder.decode(VersionOnly.self, from: data), found.version > version {
            throw .newerVersion(found: found.version, supported: version)
        }
        do {
            return try decoder.decode(Envelope.self, from: data).state
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// Writes `state`: to a temporary file in the same directory, then
    /// renamed over the snapshot, so that a crash leaves the old file or the
    /// new one, never a half-written one.
    public func save(_ state: State) throws {
        let data = try encode(state)
        try data.write(to: url, options: .atomic)
    }

    func encode(_ state: State) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Envelope(version: version, state: state))
    }

    /// Renames the file to `<name>.<reason>-<time>` (with `-2`, `-3`, … if
    /// that name is taken), or copies it there if it cannot be renamed;
    /// returns where it went. A file set aside is never overwritten.
    func setAside(because error: any Error) -> URL? {
        let reason =
            switch error as? RestoreFailure {
            case .newerVersion(let found, _)?: "from-version-\(found)"
            default: "unreadable"
            }
        let stamp = Int(Date().timeIntervalSince1970)
        let files = FileManager.default
        for attempt in 1...100 {
            let suffix = attempt == 1 ? "" : "-\(attempt)"
            let aside = url.deletingLastPathComponent()
                .appendingPathComponent("\(url.lastPathComponent).\(reason)-\(stamp)\(suffix)")
            guard !files.fileExists(atPath: aside.path) else { continue }
            if (try? files.moveItem(at: url, to: aside)) != nil { return aside }
            if (try? files.copyItem(at: url, to: aside)) != nil { return aside }
            return nil
        }
        return nil
    }
}

/// Saves a state after every change of its encoding; reports a failed write
/// through swift-log and tries again at the next change.
final class SnapshotWriter<State: Codable> {
    let snapshots: StateSnapshots<State>
    private var saved: Data?

    init(_ snapshots: StateSnapshots<State>) {
        self.snapshots = snapshots
    }

    func write(_ state: State) {
        do {
            let data = try snapshots.encode(state)
            guard data != saved else { return }
            try data.write(to: snapshots.url, options: .atomic)
            saved = data
        } catch {
            logger.error(
                "The state could not be saved.",
                metadata: ["file": "\(snapshots.url.path)", "reason": "\(error)"])
        }
    }
}

/// The storage a run with snapshots reads and writes: it saves the state
/// after every write that changed its encoding.
final class SnapshotStorage<State: Codable>: Storage {
    private let writer: SnapshotWriter<State>
    private var current: State

    init(_ snapshots: StateSnapshots<State>, state: State) {
        self.writer = SnapshotWriter(snapshots)
        self.current = state
    }

    var value: State {
        get { current }
        set {
            current = newValue
            writer.write(newValue)
        }
    }
}

extension StateSnapshots {
    /// The state a run starts from: the saved one when there is one (and
    /// then the event `restored` makes for it, if any), otherwise
    /// `initialState`; and, for an inspector, the file it was restored
    /// from.
    func startingState<Event>(
        initialState: State, restored: (State) -> Event?
    ) -> (state: State, event: Event?, restoredFrom: String?) {
        guard let saved = restore() else { return (initialState, nil, nil) }
        return (saved, restored(saved), url.lastPathComponent)
    }
}

extension BaseTransducer where State: Codable {
    /// Runs the transducer from the state saved in `snapshots` (or from
    /// `initialState` when there is none or it cannot be restored), and
    /// saves the state after every change.
    ///
    /// - Parameters:
    ///   - snapshots: Where the state is kept.
    ///   - initialState: The state to start from without a snapshot.
    ///   - restored: The event the transducer gets first after a restore,
    ///     before any event already in the proxy's buffer, to decide what to
    ///     start again; `nil` for none.
    ///   - proxy: The run's proxy.
    ///   - env: The environment of the effects.
    ///   - output: Receives every output.
    ///   - isolation: Where the run runs: the caller's isolation.
    @discardableResult
    public static func run(
        restoringFrom snapshots: StateSnapshots<State>,
        initialState: State,
        restored: (State) -> Event?,
        proxy: Proxy,
        env: Env,
        output: some Subject<Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        let start = snapshots.startingState(initialState: initialState, restored: restored)
        let storage = SnapshotStorage(snapshots, state: start.state)
        if let event = start.event {
            // Safety: `restored` made the event for this run only.
            nonisolated(unsafe) let event = event
            try proxy._channel.prepend(event)
        }
        return try await TransducerInspection.$restoredFrom.withValue(
            start.restoredFrom,
            operation: {
                try await run(storage: storage, proxy: proxy, env: env, output: output, isolation: isolation)
            }, isolation: isolation)
    }
}
