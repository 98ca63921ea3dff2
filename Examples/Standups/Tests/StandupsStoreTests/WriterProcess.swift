// What the cross-process tests share: the batches a writer commits (each
// one changes several rows of three tables together, so that half a batch
// would show) with the stand-ups after any whole number of them, and a
// writer run as a child process of this test binary, re-launched through
// /proc/self/exe (as Comics' KilledWriterTests does), that reports every
// batch it has committed on a pipe.

import Foundation
import IdentifiedCollections
import Models
import StandupsStore
import Synchronization
import Testing

import struct TerminalTesting.Launched
import class TerminalTesting.PipeReader

#if canImport(Glibc)
import Glibc
#endif

/// The batches writer `number` commits, numbered from 1. Batch `n` adds a
/// stand-up with 2 to 26 attendees, adds it a meeting, renames the
/// writer's anchor stand-up and every one of its attendees after `n`
/// (and changes its length), and every fourth batch deletes the stand-up
/// batch `n - 2` added.
struct Writer: Sendable {
    /// Tells the writers' stand-ups apart (in the high bits of their ids).
    let number: Int

    private var base: Int { (number + 1) << 40 }

    /// The stand-up every batch renames: its title names the last batch
    /// committed, and so do its six attendees.
    func anchor(after batch: Int) -> Standup {
        Standup(
            id: UUID(number: base), title: "Writer \(number) after batch \(batch)", durationSeconds: 60 + batch,
            theme: .orange,
            attendees: IdentifiedArray(
                uniqueElements: (1...6).map { Attendee(id: UUID(number: base + $0), name: "Speaker \($0) of \(batch)") }
            ))
    }

    /// The batch the anchor's title names.
    func batch(of standups: [Standup]) -> Int? {
        let anchor = anchor(after: 0)
        guard let title = standups.first(where: { $0.id == anchor.id })?.title else { return nil }
        return Int(title.dropFirst("Writer \(number) after batch ".count))
    }

    /// The stand-up batch `batch` adds.
    func standup(_ batch: Int) -> Standup {
        let id = base + batch << 12
        return Standup(
            id: UUID(number: id), title: "Writer \(number), batch \(batch)", durationSeconds: 60 * (1 + batch % 30),
            theme: .teal,
            attendees: IdentifiedArray(
                uniqueElements: (1...(2 + batch % 5 * 6)).map {
                    Attendee(id: UUID(number: id + $0), name: "Attendee \($0) of batch \(batch)")
                }))
    }

    /// The changes of batch `batch`, in one `save`.
    func changes(_ batch: Int) -> [StandupChange] {
        let added = standup(batch)
        let meeting = Meeting(
            id: UUID(number: base + batch << 12 + 0xFFF),
            date: Date(timeIntervalSince1970: Double(1_800_000_000 + batch)),
            transcript: "The meeting of batch \(batch) of writer \(number).")
        var changes: [StandupChange] = [.add(added), .addMeeting(meeting, to: added.id), .update(anchor(after: batch))]
        if batch.isMultiple(of: 4) { changes.append(.delete(standup(batch - 2).id)) }
        return changes
    }

    /// The writer's stand-ups after `batches` whole batches, in order: the
    /// changes applied in memory to the anchor as it was before the first.
    func state(after batches: Int) -> [Standup] {
        var standups: IdentifiedArrayOf<Standup> = [anchor(after: 0)]
        for batch in stride(from: 1, through: batches, by: 1) {
            for change in changes(batch) { standups.apply(change) }
        }
        return standups.elements
    }

    /// Whether `standup` is one of this writer's.
    func owns(_ standup: Standup) -> Bool {
        Int(standup.id.uuidString.suffix(12), radix: 16).map { $0 >> 40 == number + 1 } ?? false
    }
}

/// What the parent tells a child writer, through its environment.
struct WriterRole: Sendable {
    /// The data directory.
    var directory: String
    /// Its writer's number.
    var writer: Int
    /// How many batches to commit at least; nil: until killed.
    var batches: Int?
    /// The other writer's number: the child then reports "ready", awaits a
    /// line on its standard input before its first batch, and goes on
    /// until it has committed a batch after it saw one of the other's.
    var other: Int?

    private static let prefix = "OAK_STANDUPS_STORE_WRITER_"

    /// The role of this process, when it is a child writer.
    static let current: WriterRole? = {
        let environment = ProcessInfo.processInfo.environment
        guard let directory = environment[prefix + "DIR"], let writer = environment[prefix + "NUMBER"].flatMap(Int.init)
        else { return nil }
        return WriterRole(
            directory: directory, writer: writer, batches: environment[prefix + "BATCHES"].flatMap(Int.init),
            other: environment[prefix + "OTHER"].flatMap(Int.init))
    }()

    var environment: [String: String] {
        var environment = [Self.prefix + "DIR": directory, Self.prefix + "NUMBER": String(writer)]
        if let batches { environment[Self.prefix + "BATCHES"] = String(batches) }
        if let other { environment[Self.prefix + "OTHER"] = String(other) }
        return environment
    }

    /// What a child prints before each report, to tell it from Swift
    /// Testing's output.
    static let reportPrefix = "oak-standups-writer: "

    /// Prints `report` on the standard output at once (unbuffered).
    static func report(_ report: String) {
        FileHandle.standardOutput.write(Data((reportPrefix + report + "\n").utf8))
    }
}

/// A child process of this test binary running only
/// `CrossProcessTests/childWritesBatches()` in a role.
struct WriterProcess: Sendable {
    let launched: Launched
    /// What it reports, line by line, until its standard output closes.
    let reports: AsyncStream<String>
    /// Its standard input.
    let input: FileHandle
    /// Where its standard error goes.
    let log: URL

    /// Launches a child in `role`; its standard error goes to `log`.
    static func start(_ role: WriterRole, log: URL) async throws -> WriterProcess {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let errors = try FileHandle(forWritingTo: log)
        defer { try? errors.close() }
        let output = Pipe()
        let input = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["--testing-library", "swift-testing", "--filter", "childWritesBatches"]
        process.environment = ProcessInfo.processInfo.environment.merging(role.environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors

        // Read on a thread of its own (never one of the cooperative pool):
        // the lines with the report prefix, until the end of the output.
        let (reports, continuation) = AsyncStream.makeStream(of: String.self)
        let pending = Mutex(Data())
        PipeReader.start(output.fileHandleForReading) { chunk in
            let lines = pending.withLock { pending -> [String] in
                pending.append(chunk)
                var lines: [String] = []
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                return lines
            }
            for line in lines where line.hasPrefix(WriterRole.reportPrefix) {
                continuation.yield(String(line.dropFirst(WriterRole.reportPrefix.count)))
            }
        } onEnd: {
            continuation.finish()
        }
        // Process closes the parent's copies of the child's ends of both pipes.
        let launched = try await Launched.start(process)
        return WriterProcess(launched: launched, reports: reports, input: input.fileHandleForWriting, log: log)
    }

    /// What it printed on its standard error.
    var printed: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Kills it with SIGKILL (no clean-up of any kind) unless it has ended.
    func kill() {
        #if canImport(Glibc)
        if launched.process.isRunning { _ = Glibc.kill(launched.process.processIdentifier, SIGKILL) }
        #endif
    }
}
