// One tracking at a time of what a host's rendering read of its children
// and shared runs: a host that renders again — after a change of its own
// state, a key, a tick — replaces its tracking instead of adding one.
// Observation's `withObservationTracking` keeps each tracking registered
// until the state it read changes; a host that renders a thousand times
// while a child it shows stays as it was would keep a thousand.

import Observation

/// Tracks the states of children (``Child/state``) and shared runs
/// (``SharedRun/state``) that a host's rendering reads, and calls the
/// host back once one of them changes — one tracking per tracker: each
/// rendering replaces the one before.
///
/// A host that renders outside SwiftUI — a terminal, a web page — renders
/// again for reasons of its own (its state changed, a key, an animation's
/// tick), not only when a child's state did. Tracked with
/// `withObservationTracking`, each rendering would leave a tracking on
/// every child it read until that child changes; tracked with one
/// `StateTracker`, each rendering removes the tracking of the one before.
///
/// ```swift
/// let tracker = StateTracker()
///
/// func redraw() {
///     let screen = tracker.track {
///         render(host.state)
///     } onChange: {
///         redraws.yield()
///     }
///     show(screen)
/// }
/// ```
///
/// Like ``withStateTracking(_:onChange:)``, a change announced anywhere in
/// the process while the rendering ran calls `onChange` too (a shared run
/// publishes on its own isolation, and may publish between the read and
/// the tracking's installation). Other observable values the rendering
/// reads (an `@Observable` model) are tracked with
/// `withObservationTracking`, as before.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public final class StateTracker: Sendable {
    private let current = LockedState<StateTracking?>(nil)

    /// A tracker with no tracking yet.
    public init() {}

    deinit {
        current.withLock { $0 }?.cancel()
    }

    /// Runs `apply`, and calls `onChange` once a child's or shared run's
    /// state it read changes; the tracking of the tracker's previous
    /// `track` ends (its `onChange` is not called any more).
    ///
    /// `onChange` is called at most once, on the thread of the change,
    /// after the state changed: send it to the host's own isolation
    /// (yield to a stream, start a task) rather than render there.
    public func track<T>(_ apply: () -> T, onChange: @escaping @Sendable () -> Void) -> T {
        let tracking = StateTracking(onChange)
        let recorder = StateAccessRecorder()
        let before = StateObservation.changes.withLock { $0 }
        let result = StateAccessRecorder.$current.withValue(recorder) {
            withObservationTracking(apply) { tracking.tell() }
        }
        tracking.install(on: recorder.close())
        current.withLock { current in
            defer { current = tracking }
            return current
        }?.cancel()
        if StateObservation.changes.withLock({ $0 }) != before { tracking.tell() }
        return result
    }

    /// Ends the current tracking: `onChange` is not called for it.
    public func cancel() {
        current.withLock { current in
            defer { current = nil }
            return current
        }?.cancel()
    }
}

/// One rendering's tracking: the observations it read, told once.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class StateTracking: Sendable {
    private struct Progress {
        var isOver = false
        var observations: [StateObservation] = []
    }

    private let onChange: @Sendable () -> Void
    private let progress = LockedState(Progress())

    init(_ onChange: @escaping @Sendable () -> Void) {
        self.onChange = onChange
    }

    private var key: ObjectIdentifier { ObjectIdentifier(self) }

    /// Asks each of `observations` to tell this tracking of its next change.
    func install(on observations: [StateObservation]) {
        let isOver = progress.withLock { progress -> Bool in
            progress.observations = observations
            return progress.isOver
        }
        guard !isOver else { return }
        for observation in observations {
            observation.tell(key) { [weak self] in self?.tell() }
        }
        // Told or cancelled while asking: what was asked after is taken back.
        if progress.withLock({ $0.isOver }) {
            for observation in observations { observation.stopTelling(key) }
        }
    }

    /// Something read changed: the host is told, once.
    func tell() {
        guard end() else { return }
        onChange()
    }

    /// The host renders again, or stops: it is not told.
    func cancel() {
        _ = end()
    }

    /// Ends the tracking, and takes back what it asked; `false` when it
    /// had ended.
    private func end() -> Bool {
        guard
            let observations = progress.withLock({ progress -> [StateObservation]? in
                guard !progress.isOver else { return nil }
                progress.isOver = true
                return progress.observations
            })
        else { return false }
        for observation in observations { observation.stopTelling(key) }
        return true
    }
}

/// The observations a ``StateTracker``'s rendering reads.
///
/// The recorder is the task-local value for the rendering's synchronous
/// `apply`, so a task that the rendering starts inherits it: what such a
/// task reads while the rendering runs is recorded too (one tracking more
/// than needed at worst), and what it reads after the rendering is over is
/// not recorded (``record(_:)`` says so, and the read is told to the
/// registrar as anywhere else).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class StateAccessRecorder: Sendable {
    /// The recorder of the rendering this task runs in, if any.
    @TaskLocal static var current: StateAccessRecorder?

    private struct Recording {
        var isOpen = true
        var observations: [StateObservation] = []
    }

    private let recording = LockedState(Recording())

    /// Records that `observation` was read; `false` once the rendering is
    /// over.
    func record(_ observation: StateObservation) -> Bool {
        recording.withLock { recording in
            guard recording.isOpen else { return false }
            if !recording.observations.contains(where: { $0 === observation }) {
                recording.observations.append(observation)
            }
            return true
        }
    }

    /// Ends the recording; returns what was read.
    func close() -> [StateObservation] {
        recording.withLock { recording in
            recording.isOpen = false
            return recording.observations
        }
    }
}
