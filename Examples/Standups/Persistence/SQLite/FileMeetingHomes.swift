// Where each stand-up's meetings run, among the processes that share one
// data directory (the terminal app and servers on one SQLite file): the
// first process to start a stand-up's meeting claims the stand-up with an
// exclusive `flock` on a file of its own in the directory, and writes its
// address into it; it keeps the claim until the meeting ends (`release`).
// Another process finds the lock taken and says, or sends its viewer to,
// the address in the file. A process that dies loses its locks with its
// file descriptors: the next meeting is claimed by whichever process
// starts it. The SQLite counterpart of `PostgresMeetingHomes`.

import Devices
import Foundation
import Models
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The homes of the stand-ups' meetings, claimed with file locks in the
/// data directory.
///
/// ```swift
/// let homes = FileMeetingHomes(directory: dataDirectory, address: { host.baseURL })
/// let app = StandupsWeb(env: env, microphones: microphones, homes: homes.port)
/// ```
public final class FileMeetingHomes: Sendable {
    /// Where the claims' files are: `meeting-claims` in the data directory.
    public let directory: URL
    private let address: @Sendable () -> String
    /// The claims this process holds: the locked file of each stand-up.
    private let held = Mutex<[Standup.ID: Int32]>([:])

    /// The claims of the processes that share `directory` (the data
    /// directory), this one's made at `address` (a server's URL, or
    /// words that say where the terminal app runs).
    public init(directory: URL, address: @escaping @Sendable () -> String) {
        self.directory = directory.appendingPathComponent("meeting-claims", isDirectory: true)
        self.address = address
    }

    deinit {
        close()
    }

    /// The port.
    public var port: MeetingHomes {
        MeetingHomes(
            claim: { standupID in self.claim(standupID) },
            release: { standupID in self.release(standupID) },
            claimIfKnown: { standupID in self.claimIfKnown(standupID) })
    }

    /// Where the meetings of `standupID` run: here when this process holds
    /// them or has just claimed them; else the address of the process that
    /// does. When the directory cannot be used, here (the meeting is not
    /// refused, as with a single process).
    public func claim(_ standupID: Standup.ID) -> MeetingHome {
        claimIfKnown(standupID) ?? .here
    }

    /// ``claim(_:)``, but `nil` when the claims' directory or file cannot
    /// be used: resuming a meeting asks this, so that no process resumes
    /// one it is not sure nobody else runs.
    public func claimIfKnown(_ standupID: Standup.ID) -> MeetingHome? {
        held.withLock { held -> MeetingHome? in
            if held[standupID] != nil { return .here }
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("\(standupID.uuidString.lowercased()).claim").path
            let file = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard file >= 0 else { return nil }
            guard flock(file, LOCK_EX | LOCK_NB) == 0 else {
                let reason = errno
                defer { _ = Foundation.close(file) }
                return reason == EWOULDBLOCK ? .elsewhere(Self.holder(in: file)) : nil
            }
            // The file stays (never removed: a process that opened it
            // before the removal would lock a file nobody else sees).
            let bytes = Array(address().utf8)
            _ = ftruncate(file, 0)
            _ = bytes.withUnsafeBytes { pwrite(file, $0.baseAddress, $0.count, 0) }
            held[standupID] = file
            return .here
        }
    }

    /// Gives up this process's claim on `standupID`'s meetings, if it holds
    /// it (its meeting ended).
    public func release(_ standupID: Standup.ID) {
        guard let file = held.withLock({ $0.removeValue(forKey: standupID) }) else { return }
        Self.giveUp(file)
    }

    /// Gives up every claim this process holds (it stops).
    public func close() {
        let files = held.withLock { held in
            let files = Array(held.values)
            held = [:]
            return files
        }
        for file in files { Self.giveUp(file) }
    }

    /// Unlocks and closes a claim's file. Unlocked first: a child process
    /// forked meanwhile holds the file open until it runs its program, and
    /// with it the lock, unless the lock is given up.
    static func giveUp(_ file: Int32) {
        _ = flock(file, LOCK_UN)
        _ = Foundation.close(file)
    }

    /// The address its holder wrote into the claim's `file`, or words that
    /// say what it is when it wrote none yet (it has just taken the lock).
    static func holder(in file: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 2_048)
        let count = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, 0) }
        let address = count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : ""
        return address.isEmpty ? "another process on this data directory" : address
    }
}
