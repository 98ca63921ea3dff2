// The code samples of Sources/Oak/Oak.docc/TerminationAndErrors.md, compiled and run:
// the article's types under the names it uses (in one namespace), and a
// suite that runs its snippets as written, plus checks. Keep the two in
// step: change a sample here, change it in the article.

import Clocks
import Foundation
import Oak
import Synchronization
import Testing

enum DocTermination {
    typealias Counter = DocGettingStarted.Counter

    enum Upload: EffectTransducer {
        enum State: Terminable {
            case idle
            case uploading
            case finished(String)

            var isTerminal: Bool {
                if case .finished = self { true } else { false }
            }
        }

        enum Event {
            case start
            case didUpload
            case didFail(String)
        }

        struct Env: Sendable {
            var upload: @Sendable () async throws -> Void
            var closeConnection: @Sendable () -> Void
        }

        typealias Output = String

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch (state, event) {
            case (.idle, .start):
                state = .uploading
                let upload = Effect(id: "upload") { env, input in
                    do {
                        try await env.upload()
                        try input.send(.didUpload)
                    } catch let error where !(error is CancellationError) {
                        try input.send(.didFail("\(error)"))
                    }
                }
                return (upload, "uploading")
            case (.uploading, .didUpload):
                state = .finished("uploaded")
                return (closeConnection(), "uploaded")
            case (.uploading, .didFail(let reason)):
                state = .finished("failed: \(reason)")
                return (closeConnection(), "failed: \(reason)")
            default:
                return (nil, "ignored")
            }
        }

        static func closeConnection() -> Self.Effect {
            Effect(isolatedAction: { env, _ in
                env.closeConnection()
                return []
            })
        }
    }

    enum Ping: EffectTransducer {
        enum State: Terminable {
            case waiting
            case answered

            var isTerminal: Bool { self == .answered }
        }

        enum Event {
            case send
            case didAnswer
        }

        struct Env: Sendable {
            var ping: @Sendable () async throws -> Void
        }

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            switch event {
            case .send:
                return Effect { env, input in
                    try await env.ping()
                    try input.send(.didAnswer)
                }
            case .didAnswer:
                state = .answered
                return nil
            }
        }
    }

    enum PingError: Error {
        case offline
    }

    @Suite("Documentation: Termination and errors")
    struct TerminationDocumentationTests {
        @Test func aTerminalStateEndsTheRun() async throws {
            let closed = Mutex(false)
            let env = Upload.Env(
                upload: {},
                closeConnection: { closed.withLock { $0 = true } }
            )
            let proxy = Upload.Proxy(initialEvent: .start)

            let last = try await Upload.run(initialState: .idle, proxy: proxy, env: env)
            // last == "uploaded", and the connection was closed
            #expect(last == "uploaded")
            #expect(closed.withLock { $0 })

            #expect(throws: TransducerError.terminated) {
                try proxy.send(.start)
            }
        }

        @Test func aFailureCanBeAnEvent() async throws {
            let env = Upload.Env(
                upload: { throw PingError.offline },
                closeConnection: {}
            )
            let proxy = Upload.Proxy(initialEvent: .start)
            let last = try await Upload.run(initialState: .idle, proxy: proxy, env: env)
            #expect(last == "failed: offline")
        }

        @Test func cancellingThroughTheProxy() async throws {
            let (outputs, continuation) = AsyncStream.makeStream(of: String.self)
            let env = Upload.Env(
                upload: { try await Task.sleep(for: .seconds(3600)) },  // a slow upload
                closeConnection: {}
            )
            let proxy = Upload.Proxy(initialEvent: .start)
            let run = Task {
                try await Upload.run(
                    initialState: .idle,
                    proxy: proxy,
                    env: env,
                    output: Callback { continuation.yield($0) }
                )
            }
            for await output in outputs where output == "uploading" { break }

            proxy.cancel()
            // `try await run.value` throws TransducerError.cancelled. Before that, the
            // upload was cancelled and has finished; no clean-up ran.
            await #expect(throws: TransducerError.cancelled) { try await run.value }
        }

        @Test func operationsEndBeforeACancelledRunThrows() async throws {
            let log = Recorder<String>()
            let env = Upload.Env(
                upload: {
                    do {
                        try await DocEffects.untilCancelled()
                    } catch {
                        log.append("upload cancelled")
                        throw error
                    }
                },
                closeConnection: { log.append("closed") }
            )
            let (outputs, continuation) = AsyncStream.makeStream(of: String.self)
            let proxy = Upload.Proxy(initialEvent: .start)
            let run = Task {
                try await Upload.run(
                    initialState: .idle, proxy: proxy, env: env, output: Callback { continuation.yield($0) })
            }
            for await output in outputs where output == "uploading" { break }

            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
            // The upload was cancelled before `run` threw; no clean-up ran.
            #expect(log.values == ["upload cancelled"])
        }

        @Test func cancellingTheTask() async throws {
            let log = Recorder<String>()
            let env = Upload.Env(
                upload: {
                    do {
                        try await DocEffects.untilCancelled()
                    } catch {
                        log.append("upload cancelled")
                        throw error
                    }
                },
                closeConnection: { log.append("closed") }
            )
            let (outputs, continuation) = AsyncStream.makeStream(of: String.self)
            let proxy = Upload.Proxy(initialEvent: .start)
            let run = Task {
                try await Upload.run(
                    initialState: .idle, proxy: proxy, env: env, output: Callback { continuation.yield($0) })
            }
            for await output in outputs where output == "uploading" { break }

            run.cancel()
            await #expect(throws: CancellationError.self) { try await run.value }
            #expect(log.values == ["upload cancelled"])
        }

        @Test func aThrowingOperationFailsTheRun() async throws {
            let env = Ping.Env(ping: { throw PingError.offline })
            let proxy = Ping.Proxy(initialEvent: .send)
            await #expect(throws: PingError.offline) {
                try await Ping.run(initialState: .waiting, proxy: proxy, env: env)
            }
        }

        @Test func cancelWithAnError() async throws {
            let env = Ping.Env(ping: { try await DocEffects.untilCancelled() })
            let proxy = Ping.Proxy(initialEvent: .send)
            proxy.cancel(with: PingError.offline)
            await #expect(throws: PingError.offline) {
                try await Ping.run(initialState: .waiting, proxy: proxy, env: env)
            }
        }

        @Test func aProxyServesOneRun() async throws {
            let proxy = Counter.Proxy(initialEvent: .stop)
            try await Counter.run(initialState: .counting(0), proxy: proxy)

            await #expect(throws: TransducerError.proxyAlreadyInUse) {
                try await Counter.run(initialState: .counting(0), proxy: proxy)
            }
        }

        @Test func aTerminalInitialStateProducesNoOutput() async throws {
            await #expect(throws: TransducerError.noOutputProduced) {
                try await Counter.run(initialState: .finished(3), proxy: Counter.Proxy())
            }
            // An effect transducer without output returns at once.
            try await Ping.run(
                initialState: .answered, proxy: Ping.Proxy(), env: Ping.Env(ping: {}))
        }

        @Test func aFullBufferRejectsTheEvent() throws {
            let proxy = Counter.Proxy(bufferSize: 2)
            try proxy.send(.increment)
            try proxy.send(.increment)

            do {
                try proxy.send(.increment)
            } catch .bufferFull {
                // Not enqueued; the two events before it are still waiting.
            } catch {
                // .terminated or .invalidBufferSize: this run takes no more events.
            }

            #expect(throws: TransducerError.bufferFull) { try proxy.send(.decrement) }
        }

        @Test func aNonPositiveBufferSizeIsReported() async throws {
            let proxy = Counter.Proxy(bufferSize: 0)
            #expect(throws: TransducerError.invalidBufferSize(0)) {
                try proxy.send(.increment)
            }
            await #expect(throws: TransducerError.invalidBufferSize(0)) {
                try await Counter.run(initialState: .counting(0), proxy: proxy)
            }
        }

        @Test func everyErrorSaysWhatToDo() {
            let error = TransducerError.bufferFull
            #expect(error.description.contains("SyncSuspendingProxy"))
        }
    }
}
