// The speech recogniser as the features see it: whether it may be used, and
// a stream of the transcript as it grows. The live one (pocketsphinx,
// offline) is built by the injector from the Speech adapter; tests use
// `mock(...)`, which scripts results and failures and counts how often
// recognition started and stopped.

import Foundation
import Synchronization

/// Whether speech may be recognised.
public enum SpeechAuthorization: Equatable, Hashable, Sendable {
    /// Not asked yet (Apple's platforms ask the user once).
    case notDetermined
    /// The user opted out (`--no-speech`, or the setting).
    case denied
    /// This machine cannot recognise speech: no recogniser, no model, or no
    /// audio to listen to.
    case restricted
    /// Recognition may start.
    case authorized
}

/// Why recognition stopped before the meeting ended.
public struct SpeechFailure: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for the user.
    public var description: String

    /// A failure.
    public init(_ description: String) {
        self.description = description
    }
}

/// The speech recogniser's port.
public struct SpeechClient: Sendable {
    /// Whether recognition may start now.
    public var authorization: @Sendable () async -> SpeechAuthorization
    /// Asks the user, where a platform does; returns the answer.
    public var requestAuthorization: @Sendable () async -> SpeechAuthorization
    /// Starts recognising: each element is the whole transcript so far
    /// (partial results grow it). Recognition stops when the consumer
    /// stops iterating (its task cancelled), and ends the stream when the
    /// audio ends; it throws ``SpeechFailure`` when the recogniser fails.
    public var transcripts: @Sendable () -> AsyncThrowingStream<String, any Error>

    /// Why recognition cannot be used here, for the user (what is missing
    /// and how to get it), when it cannot; `nil` when it can, or nobody
    /// knows.
    public var unavailableReason: String?

    /// A client from its parts.
    public init(
        authorization: @escaping @Sendable () async -> SpeechAuthorization,
        requestAuthorization: @escaping @Sendable () async -> SpeechAuthorization,
        transcripts: @escaping @Sendable () -> AsyncThrowingStream<String, any Error>,
        unavailableReason: String? = nil
    ) {
        self.authorization = authorization
        self.requestAuthorization = requestAuthorization
        self.transcripts = transcripts
        self.unavailableReason = unavailableReason
    }
}

extension SpeechClient {
    /// A recogniser in `authorization`'s state that, once started, yields
    /// `results` (each the whole transcript so far), then fails with
    /// `failure` if one is given, else ends; or, with `staysOpen`, waits
    /// until it is stopped. `log` counts starts and stops.
    public static func mock(
        authorization: SpeechAuthorization = .authorized, results: [String] = [],
        failure: SpeechFailure? = nil, staysOpen: Bool = false, log: SpeechLog = SpeechLog()
    ) -> SpeechClient {
        SpeechClient(
            authorization: { authorization },
            requestAuthorization: { authorization == .notDetermined ? .authorized : authorization },
            transcripts: {
                log.started()
                return AsyncThrowingStream { continuation in
                    continuation.onTermination = { _ in log.stopped() }
                    for result in results { continuation.yield(result) }
                    if let failure {
                        continuation.finish(throwing: failure)
                    } else if !staysOpen {
                        continuation.finish()
                    }
                }
            })
    }

    /// A recogniser that may not be used: `.denied` or `.restricted`,
    /// for `reason` (what is missing, said to the user).
    public static func unavailable(_ authorization: SpeechAuthorization, reason: String? = nil) -> SpeechClient {
        var client = SpeechClient.mock(authorization: authorization)
        client.unavailableReason = reason
        return client
    }
}

/// Counts a mock recogniser's starts and stops: a test checks that
/// recognition started once and never stays running.
public final class SpeechLog: Sendable {
    private let counts = Mutex((starts: 0, stops: 0))

    /// A log with nothing counted.
    public init() {}

    /// How many times recognition started.
    public var starts: Int { counts.withLock { $0.starts } }
    /// How many times it stopped (its stream ended or was abandoned).
    public var stops: Int { counts.withLock { $0.stops } }
    /// Whether recognition runs now.
    public var isRunning: Bool { counts.withLock { $0.starts > $0.stops } }

    func started() { counts.withLock { $0.starts += 1 } }
    func stopped() { counts.withLock { $0.stops += 1 } }
}
