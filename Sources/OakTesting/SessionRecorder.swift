import Foundation
import Oak

/// Records the runs of transducer `T` as JSON Lines: every event taken, and
/// optionally the state after each update and each output, so that a session
/// (a bug report, a manual test) can be replayed deterministically with
/// ``SessionReplay``.
///
/// Install it as the inspector of the runs to record; with no inspector
/// installed, recording costs nothing.
///
/// ```swift
/// let recorder = try SessionRecorder<Counter>(writingTo: url, including: [.states, .outputs])
/// try await TransducerInspection.$inspector.withValue(recorder) {
///     try await Counter.run(initialState: .init(), proxy: proxy, output: output)
/// }
/// try recorder.close()
/// ```
///
/// The file starts with a header line naming the format, its version and the
/// transducer; each following line holds one record: `{"event": …}`,
/// `{"state": …}` or `{"output": …}`. States and outputs are written when
/// asked for and their types are `Encodable`.
public final class SessionRecorder<T: BaseTransducer>: TransducerInspector, @unchecked Sendable
where T.Event: Encodable {
    /// What is written besides the events.
    public typealias Content = SessionContent

    private let lock = NSLock()
    private let handle: FileHandle
    private let content: Content
    private let encoder: JSONEncoder
    private var isClosed = false
    /// The first error met while writing; reported by `close()`.
    private var failure: (any Error)?

    /// Creates (or replaces) the file at `url` and writes the header.
    ///
    /// - Throws: The error of creating or writing the file.
    public init(writingTo url: URL, including content: Content = []) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = try FileHandle(forWritingTo: url)
        self.content = content
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = SessionHeader(
            oak: SessionHeader.format, version: SessionHeader.currentVersion, transducer: "\(T.self)")
        try write(try encoder.encode(header))
    }

    /// Receives a record of a run; writes those of `T`.
    ///
    /// Safety of `@unchecked Sendable`: the file and the fields are only
    /// touched under `lock`.
    public func record<R: BaseTransducer>(_ record: InspectionRecord<R>, of run: RunID) {
        guard let record = record as? InspectionRecord<T> else { return }
        let line: Data?
        do {
            switch record {
            case .event(let event):
                line = try encoder.encode(["event": event])
            case .state(let state) where content.contains(.states):
                line = try (state as? any Encodable).map { try encoder.encode(["state": AnyEncodable($0)]) }
            case .output(let output) where content.contains(.outputs):
                line = try (output as? any Encodable).map { try encoder.encode(["output": AnyEncodable($0)]) }
            default:
                line = nil
            }
        } catch {
            lock.withLock { failure = failure ?? error }
            return
        }
        guard let line else { return }
        lock.withLock {
            guard !isClosed else { return }
            do {
                try write(line)
            } catch {
                failure = failure ?? error
            }
        }
    }

    /// Writes what is left and closes the file.
    ///
    /// - Throws: The first error met while encoding or writing a record.
    public func close() throws {
        let failure = lock.withLock { () -> (any Error)? in
            guard !isClosed else { return nil }
            isClosed = true
            try? handle.close()
            return self.failure
        }
        if let failure { throw failure }
    }

    private func write(_ line: Data) throws {
        try handle.write(contentsOf: line + Data([0x0A]))
    }
}

/// The first line of a session file.
struct SessionHeader: Codable {
    static let format = "session"
    static let currentVersion = 1

    /// Always ``format``: says that the file is an Oak session.
    var oak: String
    var version: Int
    var transducer: String
}

/// Encodes any `Encodable` value in a keyed container.
struct AnyEncodable: Encodable {
    let value: any Encodable

    init(_ value: any Encodable) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

/// What a ``SessionRecorder`` writes besides the events.
public struct SessionContent: OptionSet, Sendable {
    /// The bits of the set.
    public let rawValue: Int

    /// A set with these bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The state after each update (when `State` is `Encodable`).
    public static let states = SessionContent(rawValue: 1)
    /// Each output (when `Output` is `Encodable`).
    public static let outputs = SessionContent(rawValue: 2)
}
