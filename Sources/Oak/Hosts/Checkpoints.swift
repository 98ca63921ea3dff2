// Checkpoints: a shared run's state kept durable while it runs, so that a
// run can be resumed in another process after this one stopped or died.
// The writer is one more watcher of the run (coalesced: a slow store skips
// states, it never holds the run up); what it writes is a projection of the
// state the app chooses, in a versioned envelope.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The encoding of a run's checkpoints: a value of the app's choosing (what
/// the run needs to resume, not necessarily its whole state) in an envelope
/// that names its version.
///
/// ```swift
/// let format = CheckpointFormat<MeetingCheckpoint>(version: 1)
/// let data = try format.encode(checkpoint)
/// let restored = try format.decode(data)  // throws .otherVersion for a checkpoint of version 2
/// ```
///
/// A checkpoint is read only by the version that wrote it: one of another
/// version (older or newer) is refused with ``CheckpointError/otherVersion(found:expected:)``,
/// never decoded into a value it may not describe. Raise the version when
/// the value's meaning or shape changes; decide in the app what to do with
/// checkpoints of the version before (finish them, or drop them and say so).
public struct CheckpointFormat<Value: Codable & Sendable>: Sendable {
    /// The version written into, and required of, every checkpoint.
    public let version: Int

    /// The format of checkpoints of `version`.
    public init(version: Int) {
        self.version = version
    }

    private struct Envelope: Codable {
        var version: Int
        var value: Value
    }

    private struct VersionOnly: Codable {
        var version: Int
    }

    /// `value` in an envelope of this version (JSON, keys sorted: the same
    /// value is the same bytes).
    public func encode(_ value: Value) throws(CheckpointError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(Envelope(version: version, value: value))
        } catch {
            throw .unencodable("\(error)")
        }
    }

    /// The value of a checkpoint of this version.
    ///
    /// - Throws: ``CheckpointError/otherVersion(found:expected:)`` for a
    ///   checkpoint of another version, ``CheckpointError/unreadable(_:)``
    ///   for bytes that are not a checkpoint of this format.
    public func decode(_ data: Data) throws(CheckpointError) -> Value {
        let decoder = JSONDecoder()
        let found: Int
        do {
            found = try decoder.decode(VersionOnly.self, from: data).version
        } catch {
            throw .unreadable("not a checkpoint: \(error)")
        }
        guard found == version else { throw .otherVersion(found: found, expected: version) }
        do {
            return try decoder.decode(Envelope.self, from: data).value
        } catch {
            throw .unreadable("a checkpoint of version \(version) that does not decode: \(error)")
        }
    }
}

/// Why a checkpoint was not written or not read.
public enum CheckpointError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The checkpoint was written by another version of the format.
    case otherVersion(found: Int, expected: Int)
    /// The bytes are not a checkpoint of this format.
    case unreadable(String)
    /// The value could not be encoded.
    case unencodable(String)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .otherVersion(let found, let expected):
            "The checkpoint was written by version \(found) of its format and this program reads version "
                + "\(expected) only; it was not read. Finish it with the program that wrote it, or remove it."
        case .unreadable(let reason):
            "The checkpoint could not be read (\(reason)); it was not used."
        case .unencodable(let reason):
            "The checkpoint could not be encoded (\(reason)); nothing was written."
        }
    }
}

/// When a run's states are written as checkpoints: at once for a state that
/// is a milestone after the one written last, otherwise for the first state
/// that comes `interval` after the last write. A pure value: the loop of
/// ``SharedRun/keepCheckpoints(of:every:at:clock:write:isolation:)`` asks it
/// about each state it sees.
public struct CheckpointSchedule<State, Instant: InstantProtocol<Duration>> {
    /// The longest time a changed state waits to be written (while states
    /// keep coming).
    public let interval: Duration
    /// Whether `next` must be written at once after `written`.
    public let isMilestone: (_ written: State, _ next: State) -> Bool
    /// The state written last and when, if any.
    public private(set) var written: (state: State, at: Instant)?

    /// A schedule that has written nothing yet.
    public init(interval: Duration, isMilestone: @escaping (_ written: State, _ next: State) -> Bool) {
        self.interval = interval
        self.isMilestone = isMilestone
    }

    /// Whether `state`, seen at `now`, is due: the first state, a
    /// milestone, or `interval` or more after the last write.
    public func isDue(_ state: State, at now: Instant) -> Bool {
        guard let written else { return true }
        return isMilestone(written.state, state) || written.at.advanced(by: interval) <= now
    }

    /// Records that `state` was written at `now`.
    public mutating func didWrite(_ state: State, at now: Instant) {
        written = (state, now)
    }
}

extension SharedRun {
    /// Keeps checkpoints of the run while it runs: watches its states and
    /// writes `checkpoint(state)` through `write` at every milestone (a state
    /// for which `isMilestone(lastWritten, state)` holds), with the first
    /// state that comes `interval` or more after the last write, and with
    /// the run's final state. Returns once the run has ended and its last
    /// checkpoint has been tried.
    ///
    /// ```swift
    /// let room = SharedRun<RecordMeeting>(initialState: meeting)
    /// async let checkpoints: Void = room.keepCheckpoints(
    ///     of: { MeetingCheckpoint($0) }, every: .seconds(5),
    ///     at: { $0.speakerIndex != $1.speakerIndex }, clock: clock,
    ///     write: { try await store.save(format.encode($0)) })
    /// try await room.run(env: env)
    /// ```
    ///
    /// The writer never holds the run up: it is a watcher like any other,
    /// so a store slower than the run skips states and writes the latest.
    /// A write that throws is logged and tried again with the next state
    /// (every state after a failure is due until a write succeeds). A
    /// checkpoint equal to the one written last is not written again;
    /// `checkpoint` returns `nil` for a state that has nothing to keep
    /// (which counts as written).
    ///
    /// - Parameters:
    ///   - checkpoint: What of a state is kept.
    ///   - interval: The longest a changed state waits to be written, as
    ///     long as states keep coming (a run that goes quiet has its last
    ///     state written when it ends).
    ///   - isMilestone: Whether a state must be written at once after the
    ///     one written last (a meeting's speaker changed).
    ///   - clock: Measures the interval.
    ///   - write: Makes a checkpoint durable; throws when it could not.
    ///   - isolation: Where the loop runs: the caller's isolation by default.
    public func keepCheckpoints<Checkpoint: Equatable & Sendable, C: Clock<Duration>>(
        of checkpoint: (Shared.State) -> Checkpoint?,
        every interval: Duration,
        at isMilestone: @escaping (_ written: Shared.State, _ next: Shared.State) -> Bool = { _, _ in false },
        clock: C,
        write: (Checkpoint) async throws -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        var schedule = CheckpointSchedule<Shared.State, C.Instant>(interval: interval, isMilestone: isMilestone)
        var lastCheckpoint: Checkpoint?
        var pending: Shared.State?
        var iterator = states.makeAsyncIterator()
        while let state = await iterator.next(isolation: isolation) {
            guard schedule.isDue(state, at: clock.now) else {
                pending = state
                continue
            }
            pending = nil
            guard let value = checkpoint(state), value != lastCheckpoint else {
                schedule.didWrite(state, at: clock.now)
                continue
            }
            do {
                try await write(value)
                lastCheckpoint = value
                schedule.didWrite(state, at: clock.now)
            } catch {
                logger.warning(
                    "A checkpoint could not be written; it is tried again with the next state.",
                    metadata: ["reason": "\(error)"])
                pending = state
            }
        }
        // The run has ended: its final state, if it was not written.
        guard let state = pending, let value = checkpoint(state), value != lastCheckpoint else { return }
        do {
            try await write(value)
        } catch {
            logger.warning("The final checkpoint could not be written.", metadata: ["reason": "\(error)"])
        }
    }
}
