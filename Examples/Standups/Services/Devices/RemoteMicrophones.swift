// Microphones on other machines: a web server's meetings hear the browsers
// of their viewers. Each meeting has a floor: one speaker at a time sends
// its audio (whoever took the floor first, until they give it up or their
// connection ends); the meeting's recogniser listens to whoever holds it.
// The web front end takes the floor and sends the audio; the live speech
// client (an adapter) listens. Neither knows the other.

import Foundation
import Synchronization

/// The microphones of meetings whose audio comes from elsewhere (a
/// browser's), by meeting (the stand-up's id).
///
/// ```swift
/// let microphones = RemoteMicrophones()
/// let audio = microphones.audio(of: standup.id)      // the recogniser's side
/// let floor = try microphones.takeFloor(of: standup.id)  // a speaker's side
/// try floor.send(samples)
/// floor.release()
/// ```
public final class RemoteMicrophones: Sendable {
    private struct Meeting {
        var listener: UUID
        var audio: AsyncStream<[Int16]>.Continuation
        var holder: UUID?
    }

    private let meetings = Mutex<[UUID: Meeting]>([:])

    /// No meeting listens yet.
    public init() {}

    /// The audio of `meeting`, for its recogniser: every chunk of 16 kHz
    /// mono 16-bit samples its floor's holder sends, until the stream is
    /// dropped (which ends the holder's floor). Keeps the newest 30 seconds
    /// when the recogniser falls behind. A second listener replaces the
    /// first, whose stream ends.
    public func audio(of meeting: UUID) -> AsyncStream<[Int16]> {
        let listener = UUID()
        let (stream, continuation) = AsyncStream<[Int16]>.makeStream(bufferingPolicy: .bufferingNewest(300))
        let replaced = meetings.withLock { meetings in
            defer { meetings[meeting] = Meeting(listener: listener, audio: continuation) }
            return meetings[meeting]?.audio
        }
        replaced?.finish()
        continuation.onTermination = { [weak self] _ in
            self?.meetings.withLock { meetings in
                if meetings[meeting]?.listener == listener { meetings[meeting] = nil }
            }
        }
        return stream
    }

    /// Whether a recogniser listens to `meeting` now.
    public func isListening(to meeting: UUID) -> Bool {
        meetings.withLock { $0[meeting] != nil }
    }

    /// Takes the floor of `meeting`: its holder's audio is what the
    /// meeting hears, until ``MicrophoneFloor/release()``.
    ///
    /// - Throws: ``MicrophoneError/notListening`` when nothing records the
    ///   meeting, ``MicrophoneError/floorTaken`` when someone else holds
    ///   the floor.
    public func takeFloor(of meeting: UUID) throws(MicrophoneError) -> MicrophoneFloor {
        let holder = UUID()
        let result: Result<Void, MicrophoneError> = meetings.withLock { meetings in
            guard var listening = meetings[meeting] else { return .failure(.notListening) }
            guard listening.holder == nil else { return .failure(.floorTaken) }
            listening.holder = holder
            meetings[meeting] = listening
            return .success(())
        }
        try result.get()
        return MicrophoneFloor(microphones: self, meeting: meeting, holder: holder)
    }

    fileprivate func send(_ samples: [Int16], to meeting: UUID, from holder: UUID) throws(MicrophoneError) {
        let result: Result<Void, MicrophoneError> = meetings.withLock { meetings in
            guard let listening = meetings[meeting], listening.holder == holder else { return .failure(.ended) }
            listening.audio.yield(samples)
            return .success(())
        }
        try result.get()
    }

    fileprivate func release(_ meeting: UUID, from holder: UUID) {
        meetings.withLock { meetings in
            guard var listening = meetings[meeting], listening.holder == holder else { return }
            // A second of silence: the recogniser ends the utterance the
            // speaker was in, instead of waiting for the next speaker.
            listening.audio.yield([Int16](repeating: 0, count: 16_000))
            listening.holder = nil
            meetings[meeting] = listening
        }
    }
}

/// A meeting's floor, held: what its holder sends is what the meeting
/// hears. Released by ``release()``, or when the last reference goes.
public final class MicrophoneFloor: Sendable {
    private let microphones: RemoteMicrophones
    private let meeting: UUID
    private let holder: UUID

    fileprivate init(microphones: RemoteMicrophones, meeting: UUID, holder: UUID) {
        self.microphones = microphones
        self.meeting = meeting
        self.holder = holder
    }

    /// Sends 16 kHz mono 16-bit samples to the meeting.
    ///
    /// - Throws: ``MicrophoneError/ended`` once the meeting no longer
    ///   listens (it ended) or the floor was released.
    public func send(_ samples: [Int16]) throws(MicrophoneError) {
        try microphones.send(samples, to: meeting, from: holder)
    }

    /// Gives the floor up: someone else may take it. Calling it again does
    /// nothing.
    public func release() {
        microphones.release(meeting, from: holder)
    }

    deinit {
        release()
    }
}

/// Why a speaker's audio cannot reach a meeting.
public enum MicrophoneError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Nothing records the meeting (it does not run, or runs without
    /// recording).
    case notListening
    /// Someone else holds the meeting's floor.
    case floorTaken
    /// The meeting stopped listening, or the floor was given up.
    case ended

    /// What happened and what to do, for the user.
    public var description: String {
        switch self {
        case .notListening: "This meeting is not being recorded."
        case .floorTaken: "Someone else's microphone is on. Speak once they stop theirs."
        case .ended: "The meeting stopped listening."
        }
    }
}
