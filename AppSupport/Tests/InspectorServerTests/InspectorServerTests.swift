// oak-inspector's server: an app's link (OakInspector's InspectorLink)
// reaches the pages that watch; the token guards the page, its script and
// both WebSockets; a page of another site can neither open the page's
// stream nor pose as an app; another host's name is refused.

import Foundation
import InspectorServer
import Logging
import Oak
import OakInspector
import Testing
import WebTesting

/// Counts. Its events and states are Codable: its runs can be exported.
enum Counter: Transducer {
    struct State: NonTerminal, Sendable, Codable, Equatable {
        var count = 0
    }

    enum Event: Sendable, Codable {
        case add(Int)
    }

    static func update(_ state: inout State, event: Event) {
        switch event {
        case .add(let amount): state.count += amount
        }
    }
}

/// A counter's run, inspected through a link to an inspector's server as
/// the app "counter".
struct InspectedCounter {
    let proxy = Counter.Proxy()
    let link: InspectorLink
    let run: Task<Void, any Error>

    init(linkedTo server: InspectorServer) throws {
        let inspector = LiveInspector()
        link = InspectorLink(
            inspector, to: try InspectorEndpoint(parsing: server.endpoint), app: "counter",
            retryDelay: .milliseconds(20))
        link.start()
        let proxy = self.proxy
        run = Task {
            try await TransducerInspection.$inspector.withValue(inspector) {
                _ = try await Counter.run(initialState: Counter.State(), proxy: proxy)
            }
        }
    }

    /// Ends the run, then the link.
    func stop() async {
        proxy.cancel()
        _ = try? await run.value
        link.stop()
    }
}

@Suite("The inspector's server", .timeLimit(.minutes(1)))
struct InspectorServerTests {
    static let logger = Logger(label: "test.inspector")

    static func live(
        _ server: InspectorServer, token: String? = nil, origin: String? = nil
    ) async throws
        -> WebSocketTestClient
    {
        let base = server.server.baseURL
        return try await WebSocketTestClient.connect(
            to: "ws://127.0.0.1:\(server.server.port)/live?token=\(token ?? server.token)",
            headers: ["Origin": origin ?? base])
    }

    /// The page's messages until one matches `predicate`.
    static func messages(
        from page: WebSocketTestClient, until predicate: (InspectorHub.Message) -> Bool
    ) async throws -> [InspectorHub.Message] {
        var messages: [InspectorHub.Message] = []
        while true {
            guard case .text(let text) = try await page.receive() else { continue }
            let message = try JSONDecoder().decode(InspectorHub.Message.self, from: Data(text.utf8))
            messages.append(message)
            if predicate(message) { return messages }
        }
    }

    @Test func anAppsRunsReachThePage() async throws {
        let server = try await InspectorServer.start(logger: Self.logger)
        let page = try await Self.live(server)
        let counter = try InspectedCounter(linkedTo: server)
        let proxy = counter.proxy
        try proxy.send(.add(4))
        let messages = try await Self.messages(from: page) { message in
            message.entries?.contains { $0.kind == .state && $0.state?.contains("count: 4") == true } == true
        }
        let app = try #require(messages.first { $0.kind == "app" }?.app)
        #expect(app.name == "counter" && app.pid == getpid() && app.isConnected)
        let entries = messages.flatMap { $0.entries ?? [] }
        #expect(entries.first?.kind == .started)
        #expect(entries.first?.type?.hasSuffix("Counter") == true)
        #expect(entries.contains { $0.kind == .event && $0.text == "add(4)" })

        // A page opened later is told everything kept.
        let later = try await Self.live(server)
        let told = try await Self.messages(from: later) { $0.entries?.contains { $0.kind == .state } == true }
        #expect(told.first?.app?.name == "counter")

        await counter.stop()
        // The app is shown gone once its link closes.
        _ = try await Self.messages(from: page) { $0.kind == "app" && $0.app?.isConnected == false }
        await page.close()
        await later.close()
        await server.stop()
    }

    @Test func aRunIsExportedAsASessionAndAsATest() async throws {
        let server = try await InspectorServer.start(logger: Self.logger)
        let page = try await Self.live(server)
        let counter = try InspectedCounter(linkedTo: server)
        let proxy = counter.proxy
        try proxy.send(.add(4))
        try proxy.send(.add(3))
        let messages = try await Self.messages(from: page) { message in
            message.entries?.contains { $0.kind == .state && $0.state?.contains("count: 7") == true } == true
        }
        let app = try #require(messages.first { $0.kind == "app" }?.app?.id)
        let entries = messages.flatMap { $0.entries ?? [] }
        let runID = try #require(entries.first { $0.kind == .started }?.run)
        let secondEvent = try #require(entries.filter { $0.kind == .event }.last?.sequence)
        let browser = WebClient(base: server.server.baseURL)
        let query = "token=\(server.token)&app=\(app)&run=\(runID)"

        let session = try await browser.get("/export?\(query)&as=session")
        #expect(session.status == 200)
        #expect(session.header("Content-Disposition") == "attachment; filename=\"CounterRun\(runID).jsonl\"")
        #expect(session.body.split(separator: "\n").count == 5)  // the header, two events, two states
        #expect(session.body.contains(#"{"state":{"count":7}}"#))

        // Up to the step before the second event: the first only.
        let test = try await browser.get("/export?\(query)&through=\(secondEvent - 1)&as=test")
        #expect(test.status == 200)
        #expect(test.body.contains("@Test func replayOfCounterRun\(runID)() throws {"))
        #expect(test.body.contains(##"$0 = try state(#"{"count":4}"#)"##))
        #expect(!test.body.contains(#"{"count":7}"#))

        // What cannot be exported says why; without the token, nothing.
        let unknown = try await browser.get("/export?token=\(server.token)&app=\(app)&run=999999&as=test")
        #expect(unknown.status == 422)
        #expect(unknown.body.contains("choose a run the inspector lists"))
        #expect(try await browser.get("/export?\(query)").status == 400)
        #expect(try await browser.get("/export?app=\(app)&run=\(runID)&as=test").status == 403)

        await counter.stop()
        await page.close()
        await server.stop()
    }

    @Test func aFailingTestsRecordingOpensAtTheStepThatFailed() async throws {
        // A recording as a failing tester writes it: two events, the
        // failure after the second.
        var builder = InspectorRecording.Builder(type: Counter.self, initialState: Counter.State())
        var state = Counter.State()
        for amount in [4, 3] {
            builder.event(Counter.Event.add(amount))
            state.count += amount
            builder.state(state)
            builder.waiting()
        }
        builder.testFailed("The state does not match the expectation")
        let file = FileManager.default.temporaryDirectory.appending(path: "recording-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try builder.recording(title: "Counter, failed at CounterTests.swift:9").write(to: file)
        let recording = try InspectorRecording.read(from: file)
        let failure = try #require(recording.failure)
        #expect(failure.step == 2)

        let server = try await InspectorServer.start(logger: Self.logger)
        let app = await server.hub.load(recording)
        let browser = try await WebDriver.start(width: 1000, height: 800)
        do {
            // The address `oak-inspector open` prints.
            try await browser.open(server.pageURL + "#\(app)/\(failure.run)/\(failure.step)")
            try await browser.waitUntil("document.querySelector('#where')?.textContent === 'step 2 of 2'")
            #expect(try await browser.text("#runs .app") == "Counter, failed at CounterTests.swift:9 · recording")
            #expect(try await browser.text("#state").contains("count: 7"))
            #expect(
                try await browser.text("#steps li.current .effect.failed")
                    == "✘ the test failed here: The state does not match the expectation")
            try WebDriver.saveArtifact(try await browser.screenshot(), as: "recording.png")
            // Back a step: the state before the failing event.
            try await browser.click("#back")
            try await browser.waitUntil("document.querySelector('#where')?.textContent.startsWith('step 1 of 2')")
            #expect(try await browser.text("#state").contains("count: 4"))
        } catch {
            await browser.quit()
            await server.stop()
            throw error
        }
        await browser.quit()
        await server.stop()
    }

    @Test func theTokenGuardsThePageAndItsStreams() async throws {
        let server = try await InspectorServer.start(logger: Self.logger)
        let browser = WebClient(base: server.server.baseURL)
        #expect(try await browser.get("/").status == 403)
        #expect(try await browser.get("/?token=0123456789abcdef0123456789abcdef").status == 403)
        #expect(try await browser.get("/inspector.js").status == 403)
        let page = try await browser.get("/?token=\(server.token)")
        #expect(page.status == 200)
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(try await browser.get("/inspector.js?token=\(server.token)").status == 200)

        await #expect(throws: WebSocketTestError.self) {
            _ = try await Self.live(server, token: "0123456789abcdef0123456789abcdef")
        }
        // Another site's page, even with the token, cannot open the stream.
        await #expect(throws: WebSocketTestError.self) {
            _ = try await Self.live(server, origin: "http://attacker.example")
        }
        // Nor pose as an app: browsers send an Origin, apps do not.
        await #expect(throws: WebSocketTestError.self) {
            _ = try await WebSocketTestClient.connect(
                to: "ws://127.0.0.1:\(server.server.port)/apps?token=\(server.token)",
                headers: ["Origin": "http://attacker.example"])
        }
        // Another host's name (DNS rebinding) is refused.
        await #expect(throws: WebSocketTestError.self) {
            _ = try await WebSocketTestClient.connect(
                to: "ws://127.0.0.1:\(server.server.port)/live?token=\(server.token)",
                headers: ["Host": "attacker.example", "Origin": "http://attacker.example"])
        }
        await server.stop()
    }

    @Test func anAppWithoutTheTokenIsNotHeard() async throws {
        let server = try await InspectorServer.start(logger: Self.logger)
        let app = try await WebSocketTestClient.connect(
            to: "ws://127.0.0.1:\(server.server.port)/apps?token=\(server.token)")
        // The hello must carry the token too.
        try await app.sendText(#"{"hello":{"version":1,"token":"wrong","app":"x","pid":1}}"#)
        guard case .close = try await app.receive() else {
            Issue.record("the connection stayed open")
            return
        }
        #expect(await server.hub.knownApps.isEmpty)
        await server.stop()
    }
}

@Suite("The inspector's hub")
struct InspectorHubTests {
    static func entry(_ sequence: UInt64, text: String) -> InspectorEntry {
        InspectorEntry(sequence: sequence, time: 0, run: 1, kind: .event, text: text)
    }

    static func line(_ entry: InspectorEntry) throws -> String {
        String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
    }

    @Test func anAppsEntriesAreBoundedByCountAndByBytes() async throws {
        let hub = InspectorHub(capacity: 5, byteCapacity: 1_000)
        let app = try #require(await hub.connect(InspectorHello(token: "t", app: "a", pid: 1)))
        for sequence in 1...8 { await hub.receive(try Self.line(Self.entry(UInt64(sequence), text: "x")), from: app) }
        #expect(await hub.entries(of: app).map(\.sequence) == [4, 5, 6, 7, 8])
        // Two big entries do not fit 1,000 bytes together: the older goes.
        let big = String(repeating: "y", count: 600)
        await hub.receive(
            try Self.line(Self.entry(9, text: big)) + "\n" + Self.line(Self.entry(10, text: big)), from: app)
        #expect(await hub.entries(of: app).map(\.sequence) == [10])
        // A line that is not an entry is counted, not kept.
        await hub.receive("{not an entry", from: app)
        #expect(await hub.unreadableLines == 1)
    }

    @Test func appsAreBoundedTheOneGoneLongestForgottenFirst() async throws {
        let hub = InspectorHub(appCapacity: 2)
        let first = try #require(await hub.connect(InspectorHello(token: "t", app: "a", pid: 1)))
        let second = try #require(await hub.connect(InspectorHello(token: "t", app: "b", pid: 2)))
        // Full, and both connected: a third is refused.
        #expect(await hub.connect(InspectorHello(token: "t", app: "c", pid: 3)) == nil)
        // The same app connecting again is the same app.
        #expect(await hub.connect(InspectorHello(token: "t", app: "a", pid: 1)) == first)
        await hub.disconnect(first)
        let third = try #require(await hub.connect(InspectorHello(token: "t", app: "c", pid: 3)))
        #expect(third != first && third != second)
        #expect(await hub.knownApps.map(\.name) == ["b", "c"])
    }
}
