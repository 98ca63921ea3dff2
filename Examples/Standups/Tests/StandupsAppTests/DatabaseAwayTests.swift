// PostgreSQL stopped under a running `standups serve`, mid-meeting and
// mid-edit, then started again: the meeting goes on (its time counts on
// while the database is away), the page says the edit waits, and once the
// database is back the edit is written by itself (nobody presses "Try
// again"), the server's feed of other processes' changes resumes, and the
// meeting is saved once. Against a throw-away cluster of its own (the
// test stops it; the shared one of the other suites keeps running), made
// by Scripts/postgres-cluster.sh; skipped without PostgreSQL's programs,
// saying what to install; on CI it must run.

import Foundation
import Models
import PostgresStandups
import PostgresSupport
import PostgresTesting
import StandupsTestSupport
import TerminalTesting
import Testing
import WebTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite(
    "The database away", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Cluster.canRun, Comment(rawValue: Cluster.skipMessage)))
struct DatabaseAwayTests {
    @Test func postgresStoppedMidMeetingAndMidEditLosesNothingAndTheMeetingGoesOn() async throws {
        let cluster = try await Cluster.start()
        do {
            try await run(on: cluster)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    private func run(on cluster: Cluster) async throws {
        let location = try PostgresLocation(cluster.url)
        let database = try await PostgresAppDatabase.open(location, logger: PostgresTestServer.logger)
        let store = try await PostgresStandups.open(
            database, deadline: PostgresTestServer.deadline, logger: PostgresTestServer.logger)
        try await store.save([.add(TwoServersTests.daily), .add(TwoServersTests.retro)])
        await database.close()

        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let server = try await ServerProcess.start(
            standups, arguments: ["serve", "--port", "0", "--no-speech", "--speed", "1", "--database", cluster.url])
        do {
            // A meeting runs, and another session edits a stand-up.
            let host = try await Browser.open(server)
            try await host.startMeeting(of: TwoServersTests.daily.id)
            let editor = try await Browser.open(server)
            try await editor.openStandup(TwoServersTests.retro.id)
            #expect(try await editor.send("detail.edit") == 204)
            _ = try await editor.pages.first(where: { $0.contains("id=\"standup-form\"") }, "the form")

            // The database stops. The edit is taken, and the page says it
            // waits.
            try await cluster.pause()
            #expect(try await editor.send("form.done", fields: [("title", "Edited while away")]) == 204)
            _ = try await editor.pages.first(
                where: { $0.contains("id=\"save-failure\"") && $0.contains(">Edited while away<") },
                "the edit shown, waiting")
            // The meeting goes on: three more seconds tick with the
            // database away (the meeting's page says the change waits too).
            let away = try await host.pages.first(
                where: { $0.contains("id=\"save-failure\"") && elapsedSeconds(in: $0) != nil },
                "the meeting, the database away")
            let elapsedAway = try #require(elapsedSeconds(in: away))
            _ = try await host.pages.first(
                where: {
                    $0.contains("id=\"save-failure\"") && (elapsedSeconds(in: $0) ?? 0) >= elapsedAway + 3
                }, "the meeting going on")

            // The database comes back: the edit is written by itself.
            try await cluster.resume()
            _ = try await editor.pages.first(
                where: { !$0.contains("id=\"save-failure\"") && $0.contains(">Edited while away<") },
                "the edit saved, nobody pressing anything")
            // Another process's change is pushed again (the feed listens
            // again).
            let other = try await PostgresAppDatabase.open(location, logger: PostgresTestServer.logger)
            let otherStore = try await PostgresStandups.open(
                other, deadline: PostgresTestServer.deadline, logger: PostgresTestServer.logger)
            var renamed = TwoServersTests.daily
            renamed.title = "Daily, renamed elsewhere"
            try await otherStore.save([.update(renamed)])
            #expect(try await editor.send("app.back") == 204)
            _ = try await editor.pages.first(where: { $0.contains("Daily, renamed elsewhere") }, "the push")

            // The meeting ends and is saved, once.
            #expect(try await host.send("meeting.end") == 204)
            _ = try await host.pages.first(where: { $0.contains("meeting.save") }, "the question")
            #expect(try await host.send("meeting.save") == 204)
            _ = try await host.pages.first(
                where: { $0.contains("id=\"detail\"") && $0.components(separatedBy: "data-meeting=").count == 3 },
                "the stand-up with the meeting saved")
            #expect(await server.signal(SIGINT, within: .seconds(15)) == 0)
            let saved = try await otherStore.load()
            #expect(saved.first { $0.id == TwoServersTests.retro.id }?.title == "Edited while away")
            #expect(saved.first { $0.id == TwoServersTests.daily.id }?.meetings.count == 2)
            #expect(try await otherStore.checkpoints().isEmpty)
            await other.close()
        } catch {
            _ = await server.signal(SIGINT, within: .seconds(15))
            throw error
        }
    }
}

@Suite("The database away's clusters", .timeLimit(.minutes(1)))
struct ClusterLeftoverTests {
    @Test func aKilledRunsClusterIsRemovedAndNoOtherIs() throws {
        let parent = try ScratchDirectory()
        defer { parent.remove() }
        let files = FileManager.default
        let twoHoursAgo = Date(timeIntervalSinceNow: -7_200)
        /// A cluster's directory, last changed `modified`, its server
        /// process `server` (none: no `postmaster.pid`).
        func cluster(_ name: String, modified: Date, server: Int32? = nil) throws -> String {
            let data = parent.path(name).appendingPathComponent("data")
            try files.createDirectory(at: data, withIntermediateDirectories: true)
            if let server {
                try Data("\(server)\n/tmp/data\n".utf8).write(to: data.appendingPathComponent("postmaster.pid"))
            }
            try files.setAttributes([.modificationDate: modified], ofItemAtPath: parent.path(name).path)
            return parent.path(name).path
        }
        let killed = try cluster("oak-pg-away-killed", modified: twoHoursAgo)
        let gone = try cluster("oak-pg-away-gone", modified: twoHoursAgo, server: Int32.max)
        let running = try cluster("oak-pg-away-running", modified: twoHoursAgo, server: getpid())
        let starting = try cluster("oak-pg-away-starting", modified: Date())
        let other = try cluster("another-directory", modified: twoHoursAgo)
        Cluster.removeLeftovers(in: parent.url.path)
        #expect(!files.fileExists(atPath: killed) && !files.fileExists(atPath: gone))
        #expect(files.fileExists(atPath: running) && files.fileExists(atPath: starting))
        #expect(files.fileExists(atPath: other))
    }
}

/// A PostgreSQL cluster of a test's own (Scripts/postgres-cluster.sh), which
/// it may stop and start again.
struct Cluster {
    let directory: String
    let port: Int
    let scratch: ScratchDirectory

    /// Its database's URL.
    var url: String { "postgres://oak@127.0.0.1:\(port)/oak" }

    /// Whether PostgreSQL's programs are installed (CI installs them: there
    /// the test must run).
    static let canRun =
        ProcessInfo.processInfo.environment["CI"] == "true"
        || ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).contains {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
        }
    static let skipMessage = "install PostgreSQL's programs (apt-get install postgresql) to run it"

    /// The script, from this file's place in the repository.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/postgres-cluster.sh")

    /// Where clusters are made: `/tmp/oak-pg-away-…`.
    static let parent = "/tmp"
    static let prefix = "oak-pg-away-"

    /// A new cluster on a free port.
    static func start() async throws -> Cluster {
        removeLeftovers()
        let scratch = try ScratchDirectory()
        let directory = "\(parent)/\(prefix)\(UUID().uuidString.prefix(8))"
        var failures: [String] = []
        // A port taken meanwhile by someone else: another one.
        for _ in 0..<3 {
            let cluster = Cluster(directory: directory, port: Int.random(in: 40_000..<50_000), scratch: scratch)
            let started = try await cluster.script("start", cluster.directory, "\(cluster.port)")
            if started.exited(with: 0) {
                cluster.watch()
                return cluster
            }
            failures.append(started.description)
        }
        throw ClusterError(what: "start", finished: failures.joined(separator: "\n"))
    }

    /// Stops the server; its data stays.
    func pause() async throws {
        let paused = try await script("pause", directory)
        guard paused.exited(with: 0) else { throw ClusterError(what: "pause", finished: paused.description) }
    }

    /// Starts the paused server again.
    func resume() async throws {
        let resumed = try await script("resume", directory, "\(port)")
        guard resumed.exited(with: 0) else { throw ClusterError(what: "resume", finished: resumed.description) }
        watch()
    }

    /// Has the running server stopped at once (fast shutdown) should the
    /// tests crash or be killed: a server started by `pg_ctl` outlives
    /// them otherwise. Its process is the first line of `postmaster.pid`;
    /// a paused server's watchdog ends with it, and resuming starts another.
    private func watch() {
        guard let server = Self.server(of: directory) else { return }
        try? Watchdog.process(ending: server, with: "INT").run()
    }

    /// The server process of the cluster in `directory`: the first line of
    /// its `postmaster.pid`, which a running server keeps (`nil`: none).
    static func server(of directory: String) -> Int32? {
        guard let file = FileManager.default.contents(atPath: "\(directory)/data/postmaster.pid"),
            let line = String(decoding: file, as: UTF8.self).split(separator: "\n").first
        else { return nil }
        return Int32(line.trimmingCharacters(in: .whitespaces))
    }

    /// Removes the clusters of runs that were killed (a cluster's data
    /// takes about 40 MB, and a run that ends stops and removes its own):
    /// those in `parent` older than `age` whose server does not run. A
    /// younger one may be another run's, still starting.
    static func removeLeftovers(in parent: String = parent, olderThan age: TimeInterval = 3_600) {
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(prefix) {
            let directory = "\(parent)/\(name)"
            guard let modified = try? files.attributesOfItem(atPath: directory)[.modificationDate] as? Date,
                modified.timeIntervalSinceNow < -age
            else { continue }
            if let server = server(of: directory), kill(server, 0) == 0 || errno == EPERM { continue }
            try? files.removeItem(atPath: directory)
        }
    }

    /// Stops the server and removes it.
    func stop() async {
        _ = try? await script("stop", directory)
        scratch.remove()
    }

    private func script(_ arguments: String...) async throws -> Finished {
        return try await Subprocess.run(
            URL(fileURLWithPath: "/bin/bash"), [Self.script.path] + arguments, scratch: scratch.url,
            timeout: .seconds(40))
    }
}

/// The cluster script failed.
struct ClusterError: Error, CustomStringConvertible {
    let what: String
    let finished: String
    var description: String { "Scripts/postgres-cluster.sh \(what) failed: \(finished)" }
}
