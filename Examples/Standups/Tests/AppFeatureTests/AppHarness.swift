import AppFeature
import Clocks
import Devices
import Foundation
import Models
import Oak
import Observation
import RecordMeeting
import StandupDetail
import StandupsProvider
import StandupsTestSupport
import Testing

/// Runs the app with mock ports on the main actor; keeps the states it
/// reports and wakes the tests that wait for one.
@MainActor
final class AppHarness {
    let proxy = AppFeature.Proxy(bufferSize: 64)
    private(set) var state = AppFeature.State()
    private var run: Task<Void, Never>?
    private var waiters:
        [(id: UUID, condition: (AppFeature.State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    init(env: AppFeature.Env) {
        let proxy = self.proxy
        let storage = ReportingStorage()
        run = Task { @MainActor in
            _ = try? await AppFeature.run(storage: storage, proxy: proxy, env: env)
        }
        storage.report = { [weak self] state in self?.report(state) }
    }

    private func report(_ state: AppFeature.State) {
        self.state = state
        var waiting:
            [(id: UUID, condition: (AppFeature.State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        for waiter in waiters {
            if holds(waiter.condition) { waiter.continuation.resume() } else { waiting.append(waiter) }
        }
        waiters = waiting
    }

    /// Whether `condition` holds of the state now; what it reads of a
    /// room's or a child's own state (which changes without the app's) is
    /// tracked, and its change checks the waiters again.
    private func holds(_ condition: (AppFeature.State) -> Bool) -> Bool {
        withStateTracking {
            condition(state)
        } onChange: {
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.report(self.state)
            }
        }
    }

    /// Sends `event` and waits until `condition` holds of the state.
    func send(
        _ event: AppFeature.Event, until condition: @escaping (AppFeature.State) -> Bool = { _ in true }
    )
        async throws
    {
        try await proxy.checkedSend(event)
        await waitFor(condition)
    }

    /// Sends `event` to the stand-up's screen on top and waits until
    /// `condition` holds.
    func detail(_ event: StandupDetail.Event, until condition: @escaping (AppFeature.State) -> Bool) async throws {
        guard case .detail(let child) = state.top else {
            Issue.record("No stand-up's screen on top: \(String(describing: state.top))")
            return
        }
        try child.send(event)
        await waitFor(condition)
    }

    /// Sends `event` to the meeting on top and waits until `condition` holds.
    func meeting(_ event: RecordMeeting.Event, until condition: @escaping (AppFeature.State) -> Bool) async throws {
        guard case .meeting(let child) = state.top else {
            Issue.record("No meeting on top: \(String(describing: state.top))")
            return
        }
        try await child.proxy.checkedSend(event)
        await waitFor(condition)
    }

    /// Waits until the run reports a state for which `condition` holds (the
    /// suite's time limit bounds it).
    func waitFor(_ condition: @escaping (AppFeature.State) -> Bool) async {
        guard !holds(condition) else { return }
        // Cancelled (the suite's time limit): the wait ends, and the test
        // fails by name at its next expectation instead of hanging.
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters.append((id, condition, continuation))
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.endWait(id) }
        }
    }

    /// Ends the wait `id`, if it still waits.
    private func endWait(_ id: UUID) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume()
    }

    func end() async {
        proxy.cancel()
        await run?.value
    }
}

/// Storage that reports every state the run stores.
final class ReportingStorage: Storage {
    var value = AppFeature.State() {
        didSet { report?(value) }
    }
    var report: ((AppFeature.State) -> Void)?
}

extension AppFeature.State {
    /// The meeting on top, if any.
    var meeting: RecordMeeting.State? {
        if case .meeting(let room) = top { room.state } else { nil }
    }
}

/// The app's ports over `store` (or `standups`), with `speech` and a test
/// clock.
func appEnv(
    _ store: MockStandupsStore, speech: SpeechClient = .unavailable(.denied), clock: WatchedClock = WatchedClock(),
    sounds: SoundLog = SoundLog(), standups: StandupsProvider.Dependencies? = nil
) -> AppFeature.Env {
    AppFeature.Env(
        standups: standups ?? .mock(store), detail: StandupDetail.Env(speech: speech),
        meeting: RecordMeeting.Env(
            clock: clock, speech: speech, sound: .mock(sounds), now: { Date(timeIntervalSince1970: 1_234_567_890) },
            uuid: { UUID(number: 0) }))
}

/// Three attendees, six seconds: two seconds each.
let threeInSix = Standup(
    id: UUID(number: 0x100), title: "Morning", durationSeconds: 6, theme: .teal,
    attendees: [
        Attendee(id: UUID(number: 0x101), name: "Ada"), Attendee(id: UUID(number: 0x102), name: "Grace"),
        Attendee(id: UUID(number: 0x103), name: "Linus"),
    ])
