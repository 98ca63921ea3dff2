// When a tester's expectation fails, the run up to the failure is written
// as an inspector recording, and the failure says where: from a failing
// test to the run, step by step, in `oak-inspector open FILE`. Nothing is
// recorded until a failure: the tester's log already holds every value.

import Foundation
import Oak
import OakInspector

enum FailureRecordings {
    /// Where recordings go: `$OAK_RECORDINGS` when set (`off` writes
    /// none), else `oak-recordings` in the temporary directory.
    static var directory: URL? {
        switch ProcessInfo.processInfo.environment["OAK_RECORDINGS"] {
        case "off": nil
        case let path? where !path.isEmpty: URL(filePath: path, directoryHint: .isDirectory)
        default: FileManager.default.temporaryDirectory.appending(path: "oak-recordings", directoryHint: .isDirectory)
        }
    }

    /// The most records of a run a recording keeps: the last ones.
    static let limit = 20_000

    /// Writes the run of `T` from `initialState` through `entries`, and
    /// `failure`; returns the sentence to add to the failure (empty when
    /// nothing was written).
    static func write<T: BaseTransducer>(
        _ type: T.Type, initialState: T.State, entries: ArraySlice<RunLog<T>.Entry>, failure: String,
        at site: CallSite
    ) -> String {
        guard let directory else { return "" }
        // At most the last `limit` records, from the state before them.
        let kept = entries.suffix(limit)
        var start = initialState
        for entry in entries[..<kept.startIndex].reversed() {
            if case .state(let state) = entry {
                start = state
                break
            }
        }
        var builder = InspectorRecording.Builder(type: T.self, initialState: start)
        for entry in kept {
            switch entry {
            case .event(let event): builder.event(event)
            case .state(let state): builder.state(state)
            case .output(let output): builder.output(output)
            case .operationStarted(let info): builder.effect(.effectStarted, info)
            case .operationEnded(let info, .finished): builder.effect(.effectFinished, info)
            case .operationEnded(let info, .cancelled): builder.effect(.effectCancelled, info)
            case .operationEnded(let info, .failed(let error)): builder.effect(.effectFailed, info, error: error)
            case .eventRefused(let info): builder.effect(.eventRefused, info)
            case .waiting: builder.waiting()
            case .ended(let error): builder.ended(error)
            }
        }
        let cut = kept.count < entries.count ? " (its last \(limit) records)" : ""
        return save(builder, of: T.self, failure: failure, at: site, cut: cut, in: directory)
    }

    /// Writes the steps of an `UpdateTester` of `T`: `events` sent through
    /// `step` from `initialState` (replayed: `update` is pure), the last
    /// `limit` / 3 of them with their states and outputs; returns the
    /// sentence to add to the failure.
    static func replaying<T: BaseTransducer>(
        _ type: T.Type, from initialState: T.State, events: [T.Event],
        step: (inout T.State, T.Event) -> (EffectSummary<T.Event>?, T.Output), failure: String, at site: CallSite
    ) -> String {
        guard let directory else { return "" }
        let first = max(0, events.count - limit / 3)
        var state = initialState
        for event in events[..<first] { _ = step(&state, event) }
        var builder = InspectorRecording.Builder(type: T.self, initialState: state)
        for event in events[first...] {
            builder.event(event)
            let (_, output) = step(&state, event)
            builder.state(state)
            if T.Output.self != Void.self { builder.output(output) }
        }
        let cut = first > 0 ? " (its last \(limit / 3) events)" : ""
        return save(builder, of: T.self, failure: failure, at: site, cut: cut, in: directory)
    }

    private static func save(
        _ builder: InspectorRecording.Builder, of type: Any.Type, failure: String, at site: CallSite, cut: String,
        in directory: URL
    ) -> String {
        var builder = builder
        builder.testFailed(failure)
        let place = "\(site.fileID):\(site.line)"
        let recording = builder.recording(title: "\(type), failed at \(place)\(cut)")
        let name = "\(type)".filter { $0.isLetter || $0.isNumber }
        let file = directory.appending(path: "\(name)-\(UUID().uuidString.prefix(8)).jsonl")
        do {
            // Readable by this user only: a test's states are its data.
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try recording.write(to: file)
        } catch {
            return ""
        }
        return "\n\nThe run up to this failure, step by step: oak-inspector open \(file.path)"
    }
}
