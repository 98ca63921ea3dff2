// An app's services stop in the reverse order of their opening: the web
// server first, then the app's own loops, then what was opened before
// them; a failure while opening closes what was opened so far, and a close
// that does not end is given up on after its limit.

import AppCommands
import Foundation
import Logging
import Oak
import Synchronization
import Testing
import WebHost
import WebTesting
import WebUI

#if canImport(Glibc)
import Glibc
#endif

@Suite("An app's services", .timeLimit(.minutes(1)))
struct AppServicesTests {
    /// What happened, in order.
    final class Journal: Sendable {
        private let entries = Mutex<[String]>([])

        func note(_ entry: String) {
            entries.withLock { $0.append(entry) }
        }

        var all: [String] { entries.withLock { $0 } }
    }

    struct Failure: Error {}

    static let logger = Logger(label: "test.services")

    @Test func whatFailsToOpenClosesWhatWasOpenedLastFirst() async {
        let journal = Journal()
        await #expect(throws: Failure.self) {
            try await AppServices.run(signals: [], logger: Self.logger) { services in
                services.closing("the database") { journal.note("database") }
                services.closing("the store") { journal.note("store") }
                throw Failure()
            }
        }
        #expect(journal.all == ["store", "database"])
    }

    @Test func theServerStopsFirstThenTheLoopsThenTheRestInReverse() async throws {
        let journal = Journal()
        try await AppServices.run(signals: [], logger: Self.logger) { services in
            services.closing("the database") { journal.note("database") }
            services.closing("the store") { journal.note("store") }
            services.running("a loop") {
                while (try? await Task.sleep(for: .seconds(60))) != nil {}
                journal.note("loop")
            }
            let host = try await WebHost.start(app: Still(), sweeps: false, logger: Self.logger)
            services.serving(host) {
                journal.note("announced")
                // The server ends (as a failing one would): the app stops.
                Task {
                    await host.stop()
                    journal.note("server")
                }
            }
        }
        #expect(journal.all == ["announced", "server", "loop", "store", "database"])
    }

    @Test func theAddressIsThePublicOneGivenElseTheServersOnceItListens() async throws {
        let served = Journal()
        try await AppServices.run(signals: [], logger: Self.logger) { services in
            #expect(services.address.value == nil)
            let host = try await WebHost.start(app: Still(), sweeps: false, logger: Self.logger)
            services.serving(host) { Task { await host.stop() } }
            #expect(services.address.value == host.baseURL)
            services.address.setPublic("https://app.example.com")
            served.note(services.address.value ?? "none")
        }
        #expect(served.all == ["https://app.example.com"])
    }

    /// A stop signal (`SIGUSR2` here, which nothing else in the tests
    /// traps; `serve` traps `SIGTERM` and `SIGINT` alike) stops the server
    /// first: its page's session ends before anything else closes.
    @Test func aStopSignalStopsTheServerFirstThenTheRestInReverse() async throws {
        let journal = Journal()
        try await AppServices.run(signals: [.sigusr2], logger: Self.logger) { services in
            services.closing("the database") { journal.note("database") }
            let host = try await WebHost.start(app: Still(), sweeps: false, logger: Self.logger)
            services.closing("the store") {
                journal.note("store, sessions left: \(await host.sessionCount)")
            }
            services.serving(host) {
                journal.note("announced")
                Task {
                    let page = try await WebClient(base: host.baseURL).get("/")
                    journal.note("page \(page.status), sessions: \(await host.sessionCount)")
                    // Trapped by now: the signal stops the group, not the
                    // process.
                    kill(getpid(), SIGUSR2)
                }
            }
        }
        #expect(journal.all == ["announced", "page 200, sessions: 1", "store, sessions left: 0", "database"])
    }

    @Test func aCloseThatDoesNotEndIsGivenUpOnAfterItsLimit() async throws {
        let journal = Journal()
        let (never, release) = AsyncStream<Void>.makeStream()
        try await AppServices.run(signals: [], logger: Self.logger) { services in
            services.closing("the database") { journal.note("database") }
            services.closing("a stuck store", within: .milliseconds(50)) {
                for await _ in never {}
                // Given up on, the close is cancelled: it ends then.
                if !Task.isCancelled { journal.note("released") }
            }
            let host = try await WebHost.start(app: Still(), sweeps: false, logger: Self.logger)
            services.serving(host) { Task { await host.stop() } }
        }
        #expect(journal.all == ["database"])
        release.finish()
    }

    @Test func aCommandsResourcesCloseWhenItEndsHoweverItEnds() async throws {
        let journal = Journal()
        let value = try await AppServices.with(logger: Self.logger) { services in
            services.closing("the database") { journal.note("database") }
            services.closing("the store") { journal.note("store") }
            journal.note("body")
            return 42
        }
        #expect(value == 42)
        await #expect(throws: Failure.self) {
            try await AppServices.with(logger: Self.logger) { services in
                services.closing("the database") { journal.note("database again") }
                throw Failure()
            }
        }
        #expect(journal.all == ["body", "store", "database", "database again"])
    }
}

/// A page that never changes.
enum Quiet: EffectTransducer {
    enum State: NonTerminal, Equatable, Sendable { case idle }
    enum Event: Sendable { case nothing }
    typealias Env = Void
    static func update(_ state: inout State, event: Event) -> Self.Effect? { nil }
}

struct Still: WebApplication {
    typealias Root = Quiet
    var environment: Void { () }
    var name: String { "Still" }
    func initialState() -> Quiet.State { .idle }
    func start(_ proxy: Quiet.Proxy) async {}
    func content(of state: Quiet.State, session: WebSessionContext<Quiet>) -> HTML { "Nothing happens." }
}
