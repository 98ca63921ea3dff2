// The sound at each speaker change. The terminal's rings its bell and
// flashes the screen; a page plays a tone; tests count.

import Synchronization

/// Plays the sound of a speaker change.
public struct SoundPlayer: Sendable {
    /// Plays it; returns when it has been started.
    public var play: @Sendable () async -> Void

    /// A player.
    public init(play: @escaping @Sendable () async -> Void) {
        self.play = play
    }

    /// A player that only counts (``SoundLog/plays``).
    public static func mock(_ log: SoundLog = SoundLog()) -> SoundPlayer {
        SoundPlayer { log.played() }
    }

    /// A player that plays nothing.
    public static let silent = SoundPlayer {}
}

/// Counts a mock player's sounds.
public final class SoundLog: Sendable {
    private let count = Mutex(0)

    /// A log with nothing counted.
    public init() {}

    /// How many sounds were played.
    public var plays: Int { count.withLock { $0 } }

    func played() { count.withLock { $0 += 1 } }
}
