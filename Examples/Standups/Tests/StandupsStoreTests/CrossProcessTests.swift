// The store on real SQLite across processes: a writer killed with SIGKILL
// in the middle of its batches leaves the stand-ups after a whole number of
// them, and two processes writing at once lose nothing. The writers are
// this test binary re-launched (WriterProcess.swift); the parent never
// sleeps: it acts on what they report on a pipe and on their exits.

import Foundation
import GRDB
import Models
import StandupsStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whether this process may re-launch itself through /proc/self/exe.
private let canRelaunch: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()

@Suite("The store across processes", .serialized, .timeLimit(.minutes(1)))
struct CrossProcessTests {
    /// Kills a writer five times, at different points: each time once it
    /// has reported a different number of committed batches and this
    /// process has then read the file a different number of times (0 to
    /// 4, each read taking a while, so that the kill falls at a different
    /// moment of the batch it is writing). Every read sees the stand-ups
    /// after a whole number of batches; after each kill the file passes
    /// SQLite's integrity check and holds exactly the stand-ups after a
    /// whole number of batches, at least those reported and read; the
    /// store opens and writes the next batch, and the next writer goes on
    /// from there.
    @Test(
        .enabled(if: WriterRole.current == nil),
        .enabled(if: canRelaunch, "re-launches the test binary through /proc/self/exe, which only Linux has"))
    func aKilledWriterLeavesWholeBatches() async throws {
        let scratch = try ScratchDirectory()
        let writer = Writer(number: 0)
        let reader = StandupsStore(directory: scratch.data)
        try reader.save([.add(writer.anchor(after: 0))])
        var batches = 0
        for (round, (reportsBeforeKill, readsBeforeKill)) in [(1, 0), (12, 3), (4, 1), (30, 4), (7, 2)].enumerated() {
            let child = try await WriterProcess.start(
                WriterRole(directory: scratch.data.path, writer: writer.number),
                log: scratch.url.appendingPathComponent("writer-\(round).log"))
            defer { child.kill() }
            var reported = batches
            var reports = 0
            for await report in child.reports {
                guard let batch = Int(report.dropFirst("committed ".count)) else { continue }
                #expect(batch == reported + 1, "the batches follow one another")
                reported = batch
                reports += 1
                if reports == reportsBeforeKill { break }
            }
            try #require(reports == reportsBeforeKill, "the writer stopped early:\n\(child.printed)")
            var read = reported
            for _ in 0..<readsBeforeKill {
                let loaded = try reader.load()
                let batch = try #require(writer.batch(of: loaded))
                #expect(batch >= read && loaded == writer.state(after: batch), "round \(round): read after \(batch)")
                read = batch
            }
            child.kill()
            var exits = child.launched.exits.makeAsyncIterator()
            let ending = await exits.next()
            #expect(ending?.reason == .uncaughtSignal && ending?.status == SIGKILL, "round \(round)")

            let pool = try DatabasePool(path: reader.path)
            let integrity = try await pool.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"], "round \(round)")
            try pool.close()
            let store = StandupsStore(directory: scratch.data)
            let loaded = try store.load()
            let committed = try #require(writer.batch(of: loaded), "round \(round): \(loaded.map(\.title))")
            #expect(committed >= read, "round \(round): a batch reported or read was lost")
            #expect(
                loaded == writer.state(after: committed), "round \(round): not the state after \(committed) batches")
            try store.save(writer.changes(committed + 1))
            #expect(try StandupsStore(directory: scratch.data).load() == writer.state(after: committed + 1))
            batches = committed + 1
        }
    }

    /// Two child processes write batches at once into the same file (each
    /// goes on until it has committed one after it saw one of the other's,
    /// so their batches interleave); every batch of both is there, in
    /// order. The parent's `updates()` hears of their commits without a
    /// write of its own (GRDB observes only its own pool; the store reads
    /// `PRAGMA data_version` for the others), and a fresh `load()` sees
    /// them all.
    @Test(
        .enabled(if: WriterRole.current == nil),
        .enabled(if: canRelaunch, "re-launches the test binary through /proc/self/exe, which only Linux has"))
    func twoProcessesWritingAtOnceLoseNothing() async throws {
        let scratch = try ScratchDirectory()
        let store = StandupsStore(directory: scratch.data)
        _ = try store.load()
        var updates = store.updates().makeAsyncIterator()
        let writers = [Writer(number: 1), Writer(number: 2)]
        let anchors = writers.map { $0.anchor(after: 0) }
        try store.save(anchors.map { .add($0) })
        // Once the observer has seen this store's write, it is in place.
        while let seen = await updates.next(), seen != anchors {}

        var children: [WriterProcess] = []
        defer { for child in children { child.kill() } }
        for (writer, other) in [(writers[0], writers[1]), (writers[1], writers[0])] {
            children.append(
                try await WriterProcess.start(
                    WriterRole(directory: scratch.data.path, writer: writer.number, batches: 40, other: other.number),
                    log: scratch.url.appendingPathComponent("writer-\(writer.number).log")))
        }
        var reports = children.map { $0.reports.makeAsyncIterator() }
        for index in children.indices {
            let ready = await reports[index].next()
            try #require(ready == "ready", "writer \(index + 1) is not ready:\n\(children[index].printed)")
        }
        for child in children { try child.input.write(contentsOf: Data("go\n".utf8)) }
        var committed = [0, 0]
        for index in children.indices {
            while let report = await reports[index].next() {
                if let batch = Int(report.dropFirst("committed ".count)) { committed[index] = batch }
            }
            var exits = children[index].launched.exits.makeAsyncIterator()
            let ending = await exits.next()
            #expect(
                ending?.reason == .exit && ending?.status == 0,
                "writer \(index + 1) failed:\n\(children[index].printed)")
        }
        #expect(committed.allSatisfy { $0 >= 40 })

        let loaded = try StandupsStore(directory: scratch.data).load()
        for (writer, batches) in zip(writers, committed) {
            #expect(loaded.filter(writer.owns) == writer.state(after: batches), "writer \(writer.number)")
        }
        #expect(loaded.count == zip(writers, committed).map { $0.state(after: $1).count }.reduce(0, +))
        // Interleaved: each wrote its last batch after the other's first.
        let positions = Dictionary(uniqueKeysWithValues: loaded.enumerated().map { ($1.id, $0) })
        for (writer, other) in [(0, 1), (1, 0)] {
            let last = positions[writers[writer].standup(committed[writer]).id] ?? -1
            let first = positions[writers[other].standup(1).id] ?? Int.max
            #expect(last > first, "writer \(writer + 1) wrote nothing after writer \(other + 1) began")
        }

        // The parent's follower hears of the other processes' commits
        // with no write of its own: it comes to the list they left.
        while let seen = await updates.next(), seen != loaded {}
    }

    /// The child writer of the tests above (see ``WriterRole``): commits
    /// `writer.changes(n)` for the batches after the one the file holds,
    /// reporting "committed n" after each.
    @Test(.enabled(if: WriterRole.current != nil, "a child process of the tests above"))
    func childWritesBatches() throws {
        let role = try #require(WriterRole.current)
        let store = StandupsStore(directory: URL(fileURLWithPath: role.directory, isDirectory: true))
        let writer = Writer(number: role.writer)
        var batch = try #require(writer.batch(of: store.load()))
        let other = role.other.map(Writer.init(number:))
        if other != nil {
            WriterRole.report("ready")
            _ = readLine()
        }
        var committed = 0
        var afterOther = other == nil
        // At most 10,000 batches, should the other writer never come.
        while role.batches.map({ committed < $0 }) ?? true || !afterOther, committed < 10_000 {
            let otherHasWritten = try afterOther || other.map { try $0.batch(of: store.load()) ?? 0 > 0 } ?? true
            batch += 1
            try store.save(writer.changes(batch))
            committed += 1
            WriterRole.report("committed \(batch)")
            afterOther = otherHasWritten
        }
        #expect(afterOther, "the other writer never wrote")
    }
}
